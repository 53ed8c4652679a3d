package io.pinmx.mx;

import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverInfo;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.PinDriver;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A real driver whose endpoints pass every call through a test's interceptor, which may refuse it, let it through
 * ({@link Call#proceed}) and look at its result.
 */
final class InterceptingDriver implements PinDriver
{
    /** The intercepted call on its way to the real endpoint. */
    @FunctionalInterface
    interface Call
    {
        Object proceed() throws Throwable;
    }

    @FunctionalInterface
    interface Interceptor
    {
        Object intercept(Method method, Object[] args, Call call) throws Throwable;
    }

    private final PinDriver driver;
    private final Interceptor interceptor;
    private final List<DriverEndpoint> opened = new CopyOnWriteArrayList<>();

    InterceptingDriver(final PinDriver driver, final Interceptor interceptor)
    {
        this.driver = driver;
        this.interceptor = interceptor;
    }

    /** The real endpoints behind the intercepted ones, in the order they were opened. */
    List<DriverEndpoint> opened()
    {
        return opened;
    }

    @Override
    public DriverInfo info()
    {
        return driver.info();
    }

    @Override
    public DriverEndpoint open(final EndpointConfig config)
    {
        final DriverEndpoint endpoint = driver.open(config);
        opened.add(endpoint);
        return (DriverEndpoint)Proxy.newProxyInstance(DriverEndpoint.class.getClassLoader(),
            new Class<?>[] {DriverEndpoint.class}, (proxy, method, args) -> interceptor.intercept(method, args, () ->
            {
                try
                {
                    return method.invoke(endpoint, args);
                }
                catch (final InvocationTargetException ex)
                {
                    throw ex.getCause();
                }
            }));
    }
}
