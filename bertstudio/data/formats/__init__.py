"""One module per file format: table (CSV/TSV/GLUE), jsonl, conll (CoNLL + CoNLL-U), squad; common checks."""
