"""The German and Hungarian message catalogues (English is in ``maumau.i18n``).

Each module holds ``MESSAGES`` (every key of the English catalogue) and ``RULES`` (the
one-line summary of every built-in rule, by class name).  The wording follows the source
rule texts: Nachziehstapel, Ablage, Wunschfarbe wählen, Deine Hand, Spielregeln; kőr, káró,
pikk, treff, bubi, dáma, király, ász, talon.
"""

from . import de, hu

__all__ = ["de", "hu"]
