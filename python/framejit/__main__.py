import sys

from framejit.cli import main

sys.exit(main())
