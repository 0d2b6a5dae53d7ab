"""Where the CUDA toolkit's pieces are (libdevice, NVRTC, headers, nvdisasm): the toolkit's
folders and NVIDIA's pip wheels, searched the same way for each."""

import glob
import os
import site


def toolkit_roots():
    """CUDA_HOME, CUDA_PATH and /usr/local/cuda, those that are set, in that order."""
    candidates = (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda")
    return [root for root in candidates if root]


def wheel_paths(*parts, first_folder=False):
    """Paths matching ``site-packages/nvidia/*/<parts>`` (a glob), sorted within each site
    folder: where NVIDIA's wheels (nvidia-cuda-nvrtc, ...) put their files. With
    ``first_folder``, only those of the first site folder that has any."""
    found = []
    for packages in site.getsitepackages() + [site.getusersitepackages()]:
        found += sorted(glob.glob(os.path.join(packages, "nvidia", "*", *parts)))
        if found and first_folder:
            break
    return found
