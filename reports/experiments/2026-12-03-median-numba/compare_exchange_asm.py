"""Which min/max instructions Numba emits for python_numba's compare_exchange
(float32 rows): vector (…ps) or scalar (…ss).

    .venv/bin/python3 compare_exchange_asm.py solutions/median_filter
"""
import re
import sys

import numpy as np

sys.path.insert(0, sys.argv[1])
import python_numba  # noqa: E402

low, high = np.random.rand(2, 1024).astype(np.float32)
python_numba.compare_exchange(low, high, True, True)
for signature, asm in python_numba.compare_exchange.inspect_asm().items():
    counts = {op: len(re.findall(rf"\b{op}\b", asm))
              for op in ("vminps", "vmaxps", "vminss", "vmaxss", "vcmpltps", "vblendvps")}
    widths = {reg: len(re.findall(rf"%{reg}mm\d+", asm)) for reg in ("x", "y", "z")}
    print(signature, {op: n for op, n in counts.items() if n}, "registers:", widths)
