"""The talk's row function ("Accelerated Python with Numba", from "The Weather Notebook"): the
great-circle distance in kilometres from a row's (lat1, lon1) to a target point, and the same
over whole columns in NumPy, to check the compiled results against."""

import math

import numpy as np


def haversine_dist(row, target_latitude, target_longitude):
    x_1 = row["lat1"]
    y_1 = row["lon1"]
    x_2 = target_latitude
    y_2 = target_longitude

    x_1 = math.pi / 180 * x_1
    y_1 = math.pi / 180 * y_1
    x_2 = math.pi / 180 * x_2
    y_2 = math.pi / 180 * y_2

    dlon = y_2 - y_1
    dlat = x_2 - x_1
    a = math.sin(dlat / 2) ** 2 + math.cos(x_1) * math.cos(x_2) * math.sin(dlon / 2) ** 2

    c = 2 * math.asin(math.sqrt(a))
    r = 6371  # Radius of earth in kilometers

    return c * r


def haversine_numpy(lat1, lon1, target_latitude, target_longitude):
    """haversine_dist over whole columns, in NumPy."""
    x_1 = np.pi / 180 * lat1
    y_1 = np.pi / 180 * lon1
    x_2 = np.pi / 180 * target_latitude
    y_2 = np.pi / 180 * target_longitude
    a = np.sin((x_2 - x_1) / 2) ** 2 + np.cos(x_1) * np.cos(x_2) * np.sin((y_2 - y_1) / 2) ** 2
    return 2 * np.arcsin(np.sqrt(a)) * 6371
