"""The feedback's sentence on a hand-in's time and lateness, in the learner's language."""

from __future__ import annotations

from .rows import Row

__all__ = ["lateness_sentence", "LATE_WORDS"]

LATE_WORDS: dict[str, dict[str, str]] = {
    "en": {"on_time": "Handed in {when}, on time.",
           "late": "Handed in {when}, {days} late: {penalty} of the points are taken off, {final} of {max} count.",
           "too_late": "Handed in {when}, {days} late: past the last day that counts, so no points count.",
           "extended": " (with your extension)",
           "day": "1 day", "days": "{n} days"},
    "de": {"on_time": "Abgegeben am {when}, rechtzeitig.",
           "late": "Abgegeben am {when}, {days} zu spät: {penalty} der Punkte werden abgezogen, "
                   "{final} von {max} zählen.",
           "too_late": "Abgegeben am {when}, {days} zu spät: nach dem letzten Tag, der zählt, "
                       "also zählen keine Punkte.",
           "extended": " (mit deiner Verlängerung)",
           "day": "1 Tag", "days": "{n} Tage"},
    "hu": {"on_time": "Beadva: {when}, időben.",
           "late": "Beadva: {when}, {days} késéssel: a pontok {penalty}-át levonjuk, {max} pontból {final} számít.",
           "too_late": "Beadva: {when}, {days} késéssel: az utolsó beszámítható nap után, így nem számít pont.",
           "extended": " (a hosszabbításoddal)",
           "day": "1 nap", "days": "{n} nap"},
}


def _number(x: float, lang: str) -> str:
    text = str(int(x)) if float(x).is_integer() else f"{x:.2f}".rstrip("0")
    return text.replace(".", ",") if lang in ("de", "hu") else text


def _percent(share: float, lang: str) -> str:
    text = _number(round(share * 100, 1), lang)
    return f"{text} %" if lang in ("de", "hu") else f"{text}%"


def lateness_sentence(row: Row, lang: str = "en") -> str:
    """"Handed in 2026-12-11 09:30 +01:00, 1 day late: 10% of the points are taken off, 5.4 of 6
    count." — empty when the hand-in time is not known."""
    if not row.submitted:
        return ""
    words = LATE_WORDS.get(lang, LATE_WORDS["en"])
    when = row.submitted.replace("T", " ")
    when = when[:16] + " " + when[19:] if len(when) > 19 else when
    days = words["day"] if row.late_days == 1 else words["days"].format(n=row.late_days)
    if row.late_days <= 0:
        text = words["on_time"].format(when=when)
    elif row.penalty >= 1:
        text = words["too_late"].format(when=when, days=days)
    else:
        text = words["late"].format(when=when, days=days, penalty=_percent(row.penalty, lang),
                                    final=_number(row.final, lang), max=_number(row.max_score, lang))
    return text[:-1] + words["extended"] + "." if row.extended else text
