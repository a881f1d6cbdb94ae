"""TARGET and FLOOR.

TARGET: issue 22's "Done when" per environment — the delivered policy's
mean target, the floor no seed may fall below (None: no floor) and the
thesis's mean (spec §8.1–8.2).

FLOOR: per environment, the mean test return below which a SYMPOL
training counts as failed — the same values as rl/bench.FailBelow (issue
22's floors, CartPole's reward threshold 475, 0.5 for the other MiniGrid
tasks; Pendulum has none). Imported by the rl-*.py scripts beside it."""

FLOOR = {"CartPole-v1": 475, "Acrobot-v1": -150, "LunarLander-v2": -200,
         "MountainCarContinuous-v0": 0, "MiniGrid-Empty-Random-6x6-v0": 0.5,
         "MiniGrid-DoorKey-5x5-v0": 0.5, "MiniGrid-LavaGapS5-v0": 0.5,
         "MiniGrid-LavaGapS7-v0": 0.5, "MiniGrid-DistShift1-v0": 0.5}

TARGET = {
    "Acrobot-v1": (-85, -150, -80),
    "LunarLander-v2": (-80, -200, -57),
    "MountainCarContinuous-v0": (85, 0, 94),
    "MiniGrid-LavaGapS5-v0": (0.93, 0.5, 0.951),
    "MiniGrid-DistShift1-v0": (0.92, 0.5, 0.939),
    "CartPole-v1": (500, None, 500),
    "Pendulum-v1": (-323, None, -323),
    "MiniGrid-Empty-Random-6x6-v0": (0.964, None, 0.964),
    "MiniGrid-DoorKey-5x5-v0": (0.959, None, 0.959),
    "MiniGrid-LavaGapS7-v0": (0.953, None, 0.953),
}
