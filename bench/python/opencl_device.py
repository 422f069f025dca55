"""The OpenCL device ladder chose for the opencl rungs (--opencl-device P:D,
else the first GPU, else the CPU), opened by PyOpenCL for the
python_pyopencl rungs. Found by its platform's and its own name: PyOpenCL's
wheel brings an ICD loader of its own, which may list the platforms in
another order than the system's loader that ladder reads."""
import pyopencl as cl


def chosen_device(context):
    platform_name, device_name = context["opencl_platform_name"], context["opencl_device_name"]
    seen = []
    for platform in cl.get_platforms():
        for device in platform.get_devices():
            if platform.name == platform_name and device.name == device_name:
                return device
            seen.append(f"{platform.name}: {device.name}")
    raise RuntimeError(f"PyOpenCL cannot see the OpenCL device ladder chose ({platform_name}: {device_name}); "
                       f"it sees {'; '.join(seen) or 'no device'} (is the platform's ICD file in /etc/OpenCL/vendors?)")
