"""TODO"""

from studybot.bank.catalogue import *  # noqa: F403
from studybot.bank.catalogue import __all__  # noqa: F401
