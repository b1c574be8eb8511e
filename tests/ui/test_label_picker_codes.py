"""The legend's typed codes are what the picker does (the shortest prefix that puts a label first
in ``rank``), now computed in one pass: checked against asking ``rank`` prefix by prefix."""

from __future__ import annotations

import random

from bertstudio.ui.editors.label_picker import DIGITS, ENTER, OPEN_KEY, key_texts, opens_picker, rank, typed_code


def _by_rank(names: list[str], name: str, command_letters: frozenset[str]) -> str:
    folded = name.casefold()
    code = folded
    for end in range(1, len(folded) + 1):
        if rank(names, folded[:end])[:1] == [name]:
            code = folded[:end]
            break
    return code if code and code[0] != OPEN_KEY and opens_picker(code[0], command_letters) else OPEN_KEY + code


def _typed_applies(names: list[str], code: str, command_letters: frozenset[str]) -> str | None:
    """What typing ``code`` then Enter applies, as the editor reads the keys: "/" opens the picker
    empty, a letter that opens it is its first filter character, and Enter takes the first match."""
    if code[:1] == OPEN_KEY:
        typed = code[1:]
    elif opens_picker(code[:1], command_letters):
        typed = code
    else:
        return None
    return (rank(names, typed) or [None])[0]


def test_codes_agree_with_the_ranking_on_random_label_sets() -> None:
    rng = random.Random(0)
    letters = frozenset("s")
    for _ in range(400):
        names = list(dict.fromkeys("".join(rng.choice("abSB1/") for _ in range(rng.randint(1, 4)))
                                   for _ in range(rng.randint(1, 14))))
        for i, name in enumerate(names):
            assert typed_code(names, name, letters) == _by_rank(names, name, letters), (names, name)
            # a name starting with "/" was given the code "/": typed, it opened an empty picker
            # (names differing only by case are refused by a project: no code tells them apart)
            if [n.casefold() for n in names].count(name.casefold()) == 1:
                assert _typed_applies(names, typed_code(names, name, letters), letters) == name, (names, name)
        keys = key_texts(names, letters)
        assert keys[:DIGITS] == [str(i + 1) for i in range(min(DIGITS, len(names)))]
        assert all(k.endswith(ENTER) for k in keys[DIGITS:])


def test_a_thousand_labels_get_their_codes() -> None:
    names = [f"customer_request_category_{i}" for i in range(1000)]
    keys = key_texts(names, frozenset("s"))
    assert len(keys) == 1000 and keys[999] == "customer_request_category_999" + ENTER


def test_a_label_stored_in_nfd_is_found_by_the_nfc_a_keyboard_types_and_its_code_is_nfc() -> None:
    import unicodedata

    names = ["other", unicodedata.normalize("NFD", "Économie"), "Écologie"]
    assert rank(names, "économie") == [names[1]]
    assert rank(names, "éc") == [names[1], names[2]]
    assert typed_code(names, names[1], frozenset()) == "é"  # NFC, as typed: one key, not two
    assert typed_code(names, names[2], frozenset()) == "écol"
