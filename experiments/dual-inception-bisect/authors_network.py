"""The authors' trained Random-256 Dual Inception (document 000) as a numpy function, for diagnosis only.

Reads ``models/DualInception/cp.ckpt`` of ``sangttruong/ginrummy`` (fetch the repository; its
weights never enter ``weights/``). Layer order as their Keras model saved it: the o tower's
convolutions (4x4, 3x3, 2x2) first, then the x tower's; the dense layer sees
``[f, o4, o3, o2, x4, x3, x2]`` with each convolution's output flattened channels-last, and
``f`` the raw integers [runs, sets, deadwood, hit score].
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tf_checkpoint import read_checkpoint


def _conv_relu(grid: np.ndarray, kernel: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """Valid 2-D convolution of (B, 4, 13) grids with a (kh, kw, 1, C) kernel, ReLU, flattened (h, w, c)."""
    kh, kw, _, channels = kernel.shape
    h, w = 4 - kh + 1, 13 - kw + 1
    out = np.zeros((len(grid), h, w, channels), dtype=np.float64)
    for i in range(kh):
        for j in range(kw):
            out += grid[:, i:i + h, j:j + w, None] * kernel[i, j, 0][None, None, None, :]
    return np.maximum(out + bias, 0).reshape(len(grid), -1)


class AuthorsNetwork:
    """f (B, 4), x (B, 52) hand after the discard, o (B, 52) ISRU estimate -> predicted score (B,)."""

    def __init__(self, checkpoint: str | Path) -> None:
        t = read_checkpoint(checkpoint)
        layer = lambda i, part: t[f"layer_with_weights-{i}/{part}/.ATTRIBUTES/VARIABLE_VALUE"].astype(np.float64)
        self.o_convs = [(layer(i, "kernel"), layer(i, "bias")) for i in (0, 1, 2)]
        self.x_convs = [(layer(i, "kernel"), layer(i, "bias")) for i in (3, 4, 5)]
        self.dense = (layer(6, "kernel"), layer(6, "bias"))
        self.out = (layer(7, "kernel"), layer(7, "bias"))

    def __call__(self, f: np.ndarray, x: np.ndarray, o: np.ndarray) -> np.ndarray:
        xg, og = np.asarray(x, float).reshape(-1, 4, 13), np.asarray(o, float).reshape(-1, 4, 13)
        parts = [np.asarray(f, float)]
        parts += [_conv_relu(og, k, b) for k, b in self.o_convs]
        parts += [_conv_relu(xg, k, b) for k, b in self.x_convs]
        hidden = np.maximum(np.concatenate(parts, axis=1) @ self.dense[0] + self.dense[1], 0)
        return (hidden @ self.out[0] + self.out[1]).reshape(-1)
