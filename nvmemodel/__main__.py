"""``python -m nvmemodel …`` runs the command line (the same as ``nvmemodel …``)."""

from .cli import main

raise SystemExit(main())
