"""Playing on: a game with its history (``game``), a match of hands (``match``) and their saved
form (``serialize``), built on the core and the players."""
