"""Reading a passage in stages (terms, figures, claims, checks) and composing the offline answer."""
