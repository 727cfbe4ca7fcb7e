#!/usr/bin/python3
"""Write a binary retinal vessel map from a real fundus photograph, for the megapixel
recovery experiment (docs/experiments-megapixel.md).

Source: skimage/data/retina.jpg as shipped by Debian's python3-skimage (1411 x 1411 RGB;
a public-domain fundus photograph, see skimage.data.retina). Deterministic recipe:

 1. green channel (the vessels' best contrast), scaled to [0, 1];
 2. field of view: red channel > 0.1, eroded by a disk of radius 12 px so that the rim of
    the circular aperture does not look like a vessel;
 3. CLAHE (skimage.exposure.equalize_adapthist, clip 0.01) to even out the illumination;
 4. ridge filter: skimage.filters.sato(black_ridges=True, sigmas 1..4), dark tubes;
 5. threshold: the ridge response above its 88th percentile inside the field of view;
 6. clean-up: remove connected objects of fewer than 300 px (8-connectivity) and holes
    below 30 px, then keep the 8 largest 4-connected components (the vessel tree plus
    its largest detached branches; the graph model counts components on the
    4-neighbour grid);
 7. values: 1.0 on the vessels, 0.0 elsewhere.

Outputs (data/):
  vessels_full.png   1411 x 1411, the map at the photograph's resolution
  vessels_1024.png   1024 x 1024: the full map resized by bilinear interpolation
                     (skimage.transform.resize, order 1, anti_aliasing off), thresholded
                     at 0.5, then steps 6-7 again
  vessels_2048.png   2048 x 2048, likewise (upsampled)
  vessels_256.png    256 x 256, likewise (the quick run and implicit-gaussian)
  vessels_512.png    512 x 512, likewise (the coarse-to-fine solver's development size)
With --npy, also the same maps as float64 .npy (vessels_full.npy, vessels_1024.npy, ...).

The PNGs are 8-bit grayscale with values 0 and 255, so they are exact: `gsfw recover
--image data/vessels_1024.png` reads the same image as the .npy up to the scale, and
recover normalises x* to unit l2 norm anyway. Only the PNGs are committed (a float64
1024 x 1024 .npy is 8 MB); the .npy files are made on demand:

    /usr/bin/python3 scripts/make_vessel_map.py [--npy] [OUT_DIR]   (default data/)

Needs python3-skimage (Debian; it pulls numpy and scipy).
"""
import os
import sys

import numpy as np
from skimage import data, exposure, filters, measure, morphology, transform
from skimage.io import imsave

KEEP_COMPONENTS = 8
MIN_OBJECT = 300  # px at full resolution
SIZES = (256, 512, 1024, 2048)


def clean(mask, min_object):
    mask = morphology.remove_small_objects(mask, min_size=min_object, connectivity=2)
    mask = morphology.remove_small_holes(mask, area_threshold=30)
    labels = measure.label(mask, connectivity=1)
    if labels.max() == 0:
        return mask
    sizes = np.bincount(labels.ravel())
    sizes[0] = 0
    keep = np.argsort(-sizes, kind="stable")[:KEEP_COMPONENTS]
    keep = keep[sizes[keep] > 0]
    return np.isin(labels, keep)


def vessel_map():
    rgb = data.retina().astype(np.float64) / 255.0
    green = rgb[:, :, 1]
    fov = morphology.binary_erosion(rgb[:, :, 0] > 0.1, morphology.disk(12))
    eq = exposure.equalize_adapthist(green, clip_limit=0.01)
    ridge = filters.sato(eq, sigmas=(1, 2, 3, 4), black_ridges=True)
    ridge[~fov] = 0.0
    thr = np.percentile(ridge[fov], 88.0)
    return clean(ridge > thr, MIN_OBJECT)


def resized(mask, side):
    small = transform.resize(mask.astype(np.float64), (side, side), order=1,
                             anti_aliasing=False, mode="edge") >= 0.5
    scale = (side / mask.shape[0]) ** 2
    return clean(small, max(4, int(round(MIN_OBJECT * scale))))


def write(out_dir, name, mask, npy):
    img = mask.astype(np.float64)
    imsave(os.path.join(out_dir, name + ".png"), (mask * 255).astype(np.uint8),
           check_contrast=False)
    if npy:
        np.save(os.path.join(out_dir, name + ".npy"), img)
    comps = measure.label(mask, connectivity=1).max()
    print(f"{name}: {mask.shape[0]} x {mask.shape[1]}, nnz {int(mask.sum())} "
          f"({100.0 * mask.mean():.2f} %), {comps} components (4-neighbour)")


def main(argv):
    npy = "--npy" in argv
    rest = [a for a in argv if a != "--npy"]
    out_dir = rest[0] if rest else "data"
    os.makedirs(out_dir, exist_ok=True)
    full = vessel_map()
    write(out_dir, "vessels_full", full, npy)
    for side in SIZES:
        write(out_dir, f"vessels_{side}", resized(full, side), npy)


if __name__ == "__main__":
    main(sys.argv[1:])
