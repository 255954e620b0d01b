import sys

from jongg.cli import main

sys.exit(main())
