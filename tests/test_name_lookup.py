"""The fast lookup of categorical names in string arrays (``Parameter._codes_of_spelled``) gives the codes
``Parameter.code`` gives one name at a time, or hands the array to the general path (``None``) — never a wrong
code. It hashes a run of characters' low bytes into a small table, so names that agree there but differ elsewhere,
or differ only above Latin-1, are the cases that could go wrong."""

import numpy as np
import pytest

from nvmemodel.errors import ParameterError
from nvmemodel.parameters import PARAMETERS, _spellings

CATEGORICAL = sorted(name for name, p in PARAMETERS.items() if p.kind == "categorical")


def _one_by_one(param, names):
    return np.array([param.code(str(x)) for x in names], dtype=float)


@pytest.mark.parametrize("name", CATEGORICAL)
def test_every_listed_spelling_gets_its_code(name):
    param = PARAMETERS[name]
    spellings, _ = _spellings(param.name, param.allowed_choices(), tuple(param.aliases.items()))
    names = np.array(list(spellings) * 3)
    np.random.default_rng(0).shuffle(names)
    codes = param._codes_of_spelled(names)
    assert codes is not None  # every listed spelling takes the fast path
    np.testing.assert_array_equal(codes, _one_by_one(param, names))
    np.testing.assert_array_equal(param.check(names), codes)


@pytest.mark.parametrize("name", CATEGORICAL)
def test_names_wider_than_the_spellings_and_other_byte_orders(name):
    param = PARAMETERS[name]
    choices = [str(c) for c in param.allowed_choices()]
    wide = np.array(choices + ["x" * 40])[:-1]  # a U40 array
    big = np.array(choices).astype(np.dtype("U").newbyteorder(">").str[:2] + str(max(map(len, choices))))
    for names in (wide, big, np.array(choices).reshape(1, -1)):
        codes = param._codes_of_spelled(names)
        assert codes is not None and codes.shape == names.shape
        np.testing.assert_array_equal(codes.ravel(), _one_by_one(param, names.ravel()))


@pytest.mark.parametrize("name", CATEGORICAL)
def test_a_name_that_is_no_spelling_is_never_given_a_code(name):
    """Each choice changed at one character (to another ASCII letter, to the same low byte above Latin-1, cut short
    or extended): the fast path must answer None (and the general path then names the value), or — where the change
    still spells a choice — that choice's code."""
    param = PARAMETERS[name]
    choices = [str(c) for c in param.allowed_choices()]
    for choice in choices:
        variants = {choice[:-1], choice + "x", choice.upper()}
        for i, ch in enumerate(choice):
            variants |= {choice[:i] + chr(ord(ch) + 256) + choice[i + 1:],  # same low byte
                         choice[:i] + ("q" if ch != "q" else "z") + choice[i + 1:]}
        for v in sorted(variants):
            names = np.array([*choices, v])
            codes = param._codes_of_spelled(names)
            try:
                expected = _one_by_one(param, names)
            except ParameterError:
                assert codes is None, v
                with pytest.raises(ParameterError, match="one of"):
                    param.check(names)
                continue
            if codes is not None:
                np.testing.assert_array_equal(codes, expected)


def test_dashes_and_underscores_swapped_in_one_name_are_the_same_choice():
    param = PARAMETERS["drive.model"]
    choices = [str(c) for c in param.allowed_choices()]
    hyphenated = next(c for c in choices if "-" in c)
    mixed = hyphenated.replace("-", "_", 1)  # one of its dashes as an underscore, the others kept
    names = np.array([mixed, hyphenated, mixed.upper()])
    np.testing.assert_array_equal(param.check(names), [param.code(hyphenated)] * 3)
