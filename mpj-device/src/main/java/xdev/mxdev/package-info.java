/**
 * MPJ Express's name for the MX device, taken over by pinmx: {@link xdev.mxdev.MXDevice} is
 * {@link io.pinmx.mpj.PinmxDevice}. Owns nothing else.
 */
package xdev.mxdev;
