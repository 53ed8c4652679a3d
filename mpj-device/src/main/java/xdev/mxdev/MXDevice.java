package xdev.mxdev;

import io.pinmx.mpj.PinmxDevice;

/**
 * The class MPJ Express 0.44 instantiates for the device name "mxdev" (mpjdev.javampjdev.MPJDev admits no other
 * name for an outside device): with this jar ahead of mpj.jar on the class path, "mxdev" is pinmx.
 */
public final class MXDevice extends PinmxDevice
{
}
