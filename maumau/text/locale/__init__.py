"""The message catalogues: English, German and Hungarian (``maumau.text.i18n`` reads them).

Each module holds ``MESSAGES`` (every key of the English catalogue); German and Hungarian
also ``RULES`` (the one-line summary of every built-in rule, by class name; English reads
the rule's own docstring).  The wording follows the source
rule texts: Nachziehstapel, Ablage, Wunschfarbe wählen, Deine Hand, Spielregeln; kőr, káró,
pikk, treff, bubi, dáma, király, ász, talon.
"""

from . import de, en, hu, seats, you

__all__ = ["de", "en", "hu", "seats", "you"]
