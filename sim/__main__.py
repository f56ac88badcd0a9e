"""`python -m sim` runs the same command line as the `sim` console script."""
from sim.cli import main

raise SystemExit(main())
