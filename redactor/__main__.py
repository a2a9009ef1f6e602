import sys

from redactor.cli import main

sys.exit(main())
