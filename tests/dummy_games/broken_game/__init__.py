"""A game package whose rules fail to import: the site must stay up without it."""
