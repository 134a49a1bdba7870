"""Mau-Mau in the terminal (``maumau play``): the console (``console``), the table and the moves
as text (``table``), what the human types (``input``), the hand's and match's reports
(``report``) and the game itself (``play``)."""

from .play import (
    STRENGTHS,
    Console,
    MenuLine,
    Quit,
    TerminalPlayer,
    computers_for,
    group_moves,
    play,
    play_hand,
    play_match,
    report_hand,
    run_hand,
    upcard_lines,
)

__all__ = ["Console", "Quit", "TerminalPlayer", "MenuLine", "run_hand", "report_hand", "upcard_lines", "group_moves",
           "play", "play_hand", "play_match", "computers_for", "STRENGTHS"]
