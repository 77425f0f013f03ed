"""officegym: Gymnasium environments over clones of office apps on one shared database.

Importing the package registers its environments with Gymnasium:

    import gymnasium, officegym
    env = gymnasium.make("officegym/slack-v0")

(or, with no import, ``gymnasium.make("officegym:officegym/slack-v0")``).
"""

from officegym.gym.registration import register_envs

__all__ = ["__version__", "register_envs"]

__version__ = "0.1.0"

register_envs()
