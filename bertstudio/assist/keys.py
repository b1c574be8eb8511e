"""How a text is keyed (a 16-byte BLAKE2b digest): the embedding cache's rows and the Review
queue's kept flags. Its own module, with nothing heavy to import, so the GUI thread can key a
text without loading the encoder (and torch) that the cache module needs."""

from __future__ import annotations

import hashlib

KEY_BYTES = 16


def text_key(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=KEY_BYTES).digest()
