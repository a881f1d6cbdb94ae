"""FLOOR: per environment, the mean test return below which a SYMPOL
training counts as failed — the same values as rl/bench.FailBelow (issue
22's floors, CartPole's reward threshold 475, 0.5 for the other MiniGrid
tasks; Pendulum has none). Imported by the rl-*.py scripts beside it."""

FLOOR = {"CartPole-v1": 475, "Acrobot-v1": -150, "LunarLander-v2": -200,
         "MountainCarContinuous-v0": 0, "MiniGrid-Empty-Random-6x6-v0": 0.5,
         "MiniGrid-DoorKey-5x5-v0": 0.5, "MiniGrid-LavaGapS5-v0": 0.5,
         "MiniGrid-LavaGapS7-v0": 0.5, "MiniGrid-DistShift1-v0": 0.5}
