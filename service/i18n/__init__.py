"""Languages: the registry built from locale files, their wording, and Arabic text normalisation."""
