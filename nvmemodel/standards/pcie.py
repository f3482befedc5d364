"""PCI Express facts: transfer rates, line codes, TLP/DLLP byte costs, Ack/FC intervals.

Every constant cites where it comes from (see ``docs/physics.md`` §1–2 and §8
for the derivations). Arrays indexed by generation have a dummy entry at index 0
so that ``GT_PER_S[gen]`` works with an integer (or integer array) ``gen``.
"""

from __future__ import annotations

import enum
import math

import numpy as np

__all__ = [
    "Gen", "FlitConvention", "DllpPolicy", "LINK_WIDTHS", "MPS_CHOICES", "MRRS_CHOICES",
    "RCB_CHOICES", "GT_PER_S", "ENCODING", "FLIT_TLP_FRACTION", "FRAMING_BYTES",
    "MEM_HDR_32_BYTES", "MEM_HDR_64_BYTES", "CPL_HDR_BYTES", "ECRC_BYTES", "DLLP_BYTES",
    "SKP_FRACTION", "raw_bytes_per_s", "dllp_interval_symbols", "is_flit",
]


class Gen(enum.IntEnum):
    """PCIe generation. Gen7 exists on paper only (PCIe 7.0, 2025)."""

    GEN1 = 1
    GEN2 = 2
    GEN3 = 3
    GEN4 = 4
    GEN5 = 5
    GEN6 = 6
    GEN7 = 7

    @classmethod
    def parse(cls, value: "Gen | int | str") -> "Gen":
        """Accept ``4``, ``"4"``, ``"gen4"``, ``"Gen4"``, ``"4.0"``, ``"PCIe 4.0"`` or a Gen."""
        from ..errors import ParameterError

        if isinstance(value, str):
            text = value.strip().lower().replace("pcie", "").replace("gen", "").strip()
            text = text[:-2] if text.endswith(".0") else text
            try:
                value = int(text)
            except ValueError:
                raise ParameterError("gen", value, "a PCIe generation 1..7 (e.g. 4, 'gen4', '4.0')") from None
        try:
            return cls(int(value))
        except (ValueError, TypeError):
            raise ParameterError("gen", value, "a PCIe generation 1..7") from None


class FlitConvention(enum.Enum):
    """How much of a 256-byte Gen6/Gen7 FLIT counts as TLP capacity (docs/physics.md §1).

    The three published conventions differ by up to 8.5 %, so the choice is explicit.
    """

    #: 236 TLP bytes of 256 (PCIe 6.2 flit layout: 236 TLP + 6 DLP + 8 CRC + 6 FEC).
    TLP_BYTES = "tlp_bytes"
    #: 242 of 256: pcie-bench/pcie-model counts the 6 DLP bytes as payload.
    PCIE_MODEL = "pcie_model"
    #: 1/1: Linux ``PCIE_SPEED2MBS_ENC`` for 64 GT/s (Järvinen patch, v6.8).
    LINUX_KERNEL = "linux_kernel"


class DllpPolicy(enum.Enum):
    """How Ack/NAK and UpdateFC DLLPs are charged (docs/physics.md §2.4)."""

    #: No DLLP bytes charged.
    NONE = "none"
    #: ``8/(W·limit)`` per byte of traffic in the *opposite* direction (physics-corrected).
    WIDTH_SCALED = "width_scaled"
    #: pcie-model's charge: ``8/limit`` on every direction, whatever the traffic (conservative).
    PCIE_MODEL = "pcie_model"


#: Negotiable link widths (PCIe Base spec; x12/x32 are rarely implemented and omitted).
LINK_WIDTHS = (1, 2, 4, 8, 16)
#: Maximum Payload Size and Max Read Request Size choices, bytes (PCIe DevCtl encodings).
MPS_CHOICES = (128, 256, 512, 1024, 2048, 4096)
MRRS_CHOICES = MPS_CHOICES
#: Read Completion Boundary, bytes: 64 or 128 in the spec; pcie-model also allows 256/512.
RCB_CHOICES = (64, 128, 256, 512)

#: Transfer rate per lane, GT/s, by generation (pcie-model ``GTs``; Linux ``pci.h``).
GT_PER_S = np.array([np.nan, 2.5, 5.0, 8.0, 16.0, 32.0, 64.0, 128.0])
#: Line-code efficiency: 8b/10b (Gen1-2), 128b/130b (Gen3-5), 1b/1b PAM4 + FLIT (Gen6-7).
#: Source: Linux ``drivers/pci/pci.h`` ``PCIE_SPEED2MBS_ENC``; PCIe r6.1 §1.2 Table 1-1.
ENCODING = np.array([np.nan, 0.8, 0.8, 128 / 130, 128 / 130, 128 / 130, 1.0, 1.0])

#: Fraction of a 256 B FLIT that carries TLP bytes, by convention (docs/physics.md §1).
FLIT_TLP_FRACTION = {
    FlitConvention.TLP_BYTES: 236 / 256,
    FlitConvention.PCIE_MODEL: 242 / 256,
    FlitConvention.LINUX_KERNEL: 1.0,
}

#: Per-TLP framing + link CRC in non-flit mode, bytes. Gen1/2: STP 1 + seq 2 + LCRC 4 + END 1;
#: Gen3-5: 4 B STP token + LCRC 4. pcie-model ``DLLP_Hdr = 8``; Intel AN 456 (5 DW incl. 3 DW hdr).
FRAMING_BYTES = 8
#: Memory request header, 3 DW (32-bit address) and 4 DW (64-bit address). pcie-model ``TLP_M*_Hdr``.
MEM_HDR_32_BYTES = 12
MEM_HDR_64_BYTES = 16
#: Completion (CplD/Cpl) header, 3 DW. pcie-model ``TLP_CplD_Hdr``.
CPL_HDR_BYTES = 12
#: Optional end-to-end CRC digest. pcie-model ``TLP_Dig``.
ECRC_BYTES = 4
#: One DLLP on the wire: 6 B + 2 B framing. pcie-model ``Ack_Size = FC_Size = 8``.
DLLP_BYTES = 8

#: SKP ordered-set share of the link, by generation. Gen1/2: 4 symbols per 1538
#: (pcie-model ``SKIP_Length/SKIP_Interval``). Gen3-5: one block per ~372 blocks
#: (ASSUMPTION from the spec text's 370-375 interval, not re-verified; docs/physics.md §1).
#: Gen6/7 flit mode: not modelled (0).
SKP_FRACTION = np.array([np.nan, 4 / 1538, 4 / 1538, 1 / 372, 1 / 372, 1 / 372, 0.0, 0.0])

# Ack latency limits and UpdateFC guidelines in symbol times, PCIe Base 5.0 Tables 3-7..3-9
# and 2-46..2-48, as tabulated by pcie-bench/pcie-model ``model/pcie.py``. The two tables
# are identical there. Rows: width x1, x2, x4, x8, x16; columns: MPS 128..4096.
# Gen4-7 rows are Gen3's (pcie-model copies them; for Gen6/7 this is a GUESS).
_ACK_GEN1 = [[237, 416, 559, 1071, 2095, 4143], [128, 217, 289, 545, 1057, 2081],
             [73, 118, 154, 282, 538, 1050], [67, 107, 86, 150, 278, 534],
             [48, 72, 86, 150, 278, 534]]
_ACK_GEN2 = [[288, 467, 610, 1122, 2146, 4194], [179, 268, 340, 596, 1108, 2132],
             [124, 169, 205, 333, 589, 1101], [118, 158, 137, 201, 329, 585],
             [99, 123, 137, 201, 329, 585]]
_ACK_GEN3 = [[333, 512, 655, 1167, 2191, 4239], [224, 313, 385, 641, 1153, 2177],
             [169, 214, 250, 378, 634, 1146], [163, 203, 182, 246, 374, 630],
             [144, 168, 182, 246, 374, 630]]
#: Indexed [gen, width_index, mps_index]; gen 0 is a NaN placeholder.
ACK_LIMIT_SYMBOLS = np.array(
    [np.full((5, 6), np.nan), _ACK_GEN1, _ACK_GEN2] + [_ACK_GEN3] * 5, dtype=float
)
FC_GUIDE_SYMBOLS = ACK_LIMIT_SYMBOLS  # identical tables (pcie-model FC_Guide == Ack_Limits)

_WIDTH_INDEX = np.full(17, -1)
_WIDTH_INDEX[[1, 2, 4, 8, 16]] = np.arange(5)
_MPS_INDEX = {m: i for i, m in enumerate(MPS_CHOICES)}


def is_flit(gen):
    """True where the generation runs in FLIT mode (Gen6 and later)."""
    return np.asarray(gen) >= 6


def raw_bytes_per_s(gen, lanes, *, flit: FlitConvention = FlitConvention.TLP_BYTES):
    """Per-direction bandwidth after line encoding, bytes/s.

    ``GT/s × 1e9 × enc × lanes / 8``; for FLIT generations the TLP share of the
    flit (``flit``) is applied as well, so the result is TLP-byte capacity there.

    >>> round(float(raw_bytes_per_s(4, 4)) * 12 / 1e9, 2)   # Dell R7525, 12 × Gen4 x4
    94.52
    """
    gen = np.asarray(gen)
    rate = GT_PER_S[gen] * 1e9 * ENCODING[gen] * np.asarray(lanes) / 8.0
    return np.where(is_flit(gen), rate * FLIT_TLP_FRACTION[flit], rate)


def mps_index(mps):
    """Index of ``mps`` into :data:`MPS_CHOICES` (vectorized: log2(mps/128))."""
    return np.log2(np.asarray(mps, dtype=float) / 128).astype(int)


def dllp_interval_symbols(gen, lanes, mps):
    """Ack-limit (= UpdateFC) interval in symbol times for (gen, width, MPS)."""
    if isinstance(gen, (int, float)) and isinstance(lanes, (int, float)) and isinstance(mps, (int, float)):
        # one link: plain indexing (the array path costs ~10x on scalars, and one curve's fit calls it often)
        return ACK_LIMIT_SYMBOLS[int(gen), _WIDTH_INDEX[int(lanes)], int(math.log2(mps / 128))]
    return ACK_LIMIT_SYMBOLS[np.asarray(gen), _WIDTH_INDEX[np.asarray(lanes)], mps_index(mps)]
