#!/usr/bin/python3
"""Side-by-side figure of a `gsfw recover` run: truth (left) and recovered (right),
each downsampled to SIDE x SIDE pixels (area averaging, skimage.transform.resize with
anti-aliasing), separated by a 4-pixel grey bar, as one 8-bit PNG.

    /usr/bin/python3 scripts/make_megapixel_figure.py RUN_DIR OUT.png [SIDE]   (SIDE 384)

RUN_DIR is a recover --out-dir (it holds truth.png and recovered.png). Needs
python3-skimage.
"""
import sys

import numpy as np
from skimage import io, transform


def load(path, side):
    img = io.imread(path).astype(np.float64)
    if img.ndim == 3:
        img = img[:, :, :3].mean(axis=2)
    return transform.resize(img / 255.0, (side, side), order=1, anti_aliasing=True)


def main(argv):
    run, out = argv[0], argv[1]
    side = int(argv[2]) if len(argv) > 2 else 384
    truth = load(run + "/truth.png", side)
    rec = load(run + "/recovered.png", side)
    bar = np.full((side, 4), 0.5)
    both = np.clip(np.hstack([truth, bar, rec]), 0.0, 1.0)
    io.imsave(out, (both * 255.0 + 0.5).astype(np.uint8), check_contrast=False)


if __name__ == "__main__":
    main(sys.argv[1:])
