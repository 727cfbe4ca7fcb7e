#!/usr/bin/python3
"""Test images of the tree experiment as 256 x 256 float64 .npy files.

Usage: /usr/bin/python3 experiments/prepare_images.py OUT_DIR [NAME ...]

Reads the grayscale test images that Debian's python3-skimage ships (skimage/data) and
writes OUT_DIR/NAME.npy: the image resized to 256 x 256 by skimage.transform.resize
(bilinear, with Gaussian anti-aliasing: deterministic), scaled to [0, 1]. Default names:
camera (the cameraman, 512 x 512), moon (512 x 512), phantom (Shepp-Logan, 400 x 400).
"""
import os
import sys

import numpy as np
import skimage.io
import skimage.transform

SIDE = 256
DEFAULT = ["camera", "moon", "phantom"]


def load(name):
    path = os.path.join(os.path.dirname(skimage.__file__), "data", name + ".png")
    if not os.path.exists(path):
        sys.exit(f"prepare_images.py: no test image '{name}' ({path} is missing)")
    img = skimage.io.imread(path)
    if img.ndim == 3:  # RGB(A) -> luma
        img = img[..., :3] @ np.array([0.299, 0.587, 0.114])
    img = img.astype(np.float64)
    img = skimage.transform.resize(img, (SIDE, SIDE), order=1, anti_aliasing=True)
    lo, hi = img.min(), img.max()
    return (img - lo) / (hi - lo) if hi > lo else np.zeros_like(img)


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__.strip().splitlines()[2])
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    for name in argv[2:] or DEFAULT:
        np.save(os.path.join(out, name + ".npy"), np.ascontiguousarray(load(name)))


if __name__ == "__main__":
    main(sys.argv)
