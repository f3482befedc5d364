"""nbval runs the notebooks in place with their stored parameters: send their files to a temporary
folder (``NVMEMODEL_OUTPUT_ROOT``, read by :mod:`nvmemodel.report`), never into a user's ``output/``."""

import atexit
import os
import shutil
import tempfile

_tmp = tempfile.mkdtemp(prefix="nvmemodel-nbval-")
os.environ["NVMEMODEL_OUTPUT_ROOT"] = _tmp  # inherited by the kernels nbval starts
atexit.register(shutil.rmtree, _tmp, ignore_errors=True)
