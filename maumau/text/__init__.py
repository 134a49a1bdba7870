"""Words: the catalogue of sentences in English, German and Hungarian (``i18n``, ``locale``),
which the core speaks with and so sits below it, and, above the core, the narration of moves
and states (``explain``) and the variants side by side (``rules_table``).

This package's ``__init__`` imports nothing: the core imports the catalogue without the
narration."""
