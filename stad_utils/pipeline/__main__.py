"""``python -m stad_utils.pipeline PARAMS.yaml``: run the stage notebooks of a params file (see `main`)."""

import sys

from ._runner import main

sys.exit(main())
