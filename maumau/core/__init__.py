"""The core: cards, moves, the state and the engine that plays it, the rules and the variants
made of them.  It imports nothing above it (the catalogue of sentences a rule's veto is said
in, ``maumau.text.i18n``, sits below it); everything else of maumau is built on it.

This package's ``__init__`` imports nothing, so a module of the core loads only what it needs."""
