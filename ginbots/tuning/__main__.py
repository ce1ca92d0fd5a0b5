import sys

from ginbots.cli import main

sys.exit(main(["tune", *sys.argv[1:]]))
