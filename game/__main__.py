"""`python -m game` runs the same CLI as the `rulefront` script."""

from game.cli import main

raise SystemExit(main())
