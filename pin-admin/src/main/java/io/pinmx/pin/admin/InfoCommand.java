package io.pinmx.pin.admin;

import io.pinmx.pin.kernel.KernelModuleStatus;
import io.pinmx.pin.kernel.PinmxAbi;
import io.pinmx.pin.node.ChronicleFlags;
import io.pinmx.pin.select.DriverSelector;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.DriverFeature;
import io.pinmx.pin.spi.DriverInfo;
import io.pinmx.pin.spi.PinDriver;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/**
 * {@code info}: the providers on the class path, which one a job would use here and why, the kernel module
 * (version, ABI, features, parameters, attached interfaces), the node files and the JVM flags this JVM lacks.
 */
final class InfoCommand
{
    /** What bin/pinmx-run (and so every job) uses when neither --driver nor PINMX_DRIVER says. */
    static final String JOB_DEFAULT_DRIVER = "user";
    private static final String CHOSEN_BECAUSE = "chosen because ";
    private static final String CANNOT_RUN = "cannot run: ";

    private final Map<String, String> env;
    private final KernelModuleStatus module;
    private final Path peersFile;
    private final Path countersFile;

    InfoCommand(final Map<String, String> env, final KernelModuleStatus module, final Path peersFile,
        final Path countersFile)
    {
        this.env = env;
        this.module = module;
        this.peersFile = peersFile;
        this.countersFile = countersFile;
    }

    Report run()
    {
        final StringBuilder text = new StringBuilder();
        final List<Object> providers = providers(text);
        final Map<String, Object> selection = selection(text);
        final Map<String, Object> kernel = module(text);
        final Map<String, Object> files = JsonWriter.object(
            "peers", file(peersFile), "counters", file(countersFile));
        text.append("peer table: ").append(peersFile).append(Files.exists(peersFile) ? "" : " (absent)").append('\n');
        text.append("counters: ").append(countersFile).append(Files.exists(countersFile) ? "" : " (absent)")
            .append('\n');
        final List<String> missing = ChronicleFlags.missing();
        if (!missing.isEmpty())
        {
            text.append("this JVM lacks the flags node-wide state needs: ").append(String.join(" ", missing))
                .append('\n');
        }
        return new Report(JsonWriter.object("providers", providers, "selection", selection, "module", kernel,
            "nodeFiles", files, "jvmFlagsMissing", List.copyOf(missing)), text.toString());
    }

    private List<Object> providers(final StringBuilder text)
    {
        final List<Object> json = new ArrayList<>();
        try
        {
            for (final PinDriver driver : ServiceLoader.load(PinDriver.class))
            {
                json.add(provider(driver, text));
            }
        }
        catch (final ServiceConfigurationError ex)
        {
            text.append("provider registration broken: ").append(ex.getMessage()).append('\n');
            json.add(JsonWriter.object("problem", "provider registration broken: " + ex.getMessage()));
        }
        if (json.isEmpty())
        {
            text.append("no driver providers on the class path\n");
        }
        return json;
    }

    private static Map<String, Object> provider(final PinDriver driver, final StringBuilder text)
    {
        final DriverInfo info;
        try
        {
            info = driver.info();
        }
        catch (final DriverException ex)
        {
            text.append("provider ").append(driver.getClass().getName()).append(": unavailable: ")
                .append(ex.getMessage()).append('\n');
            return JsonWriter.object("class", driver.getClass().getName(), "problem", ex.getMessage());
        }
        final String features = info.features().stream().sorted().map(DriverFeature::name)
            .collect(Collectors.joining(", "));
        final Map<String, Object> here = choose(info.providerName(), "pinmx-admin");
        text.append("provider ").append(info.providerName()).append(": ").append(carries(info)).append("; ")
            .append(null == here.get("provider") ? "not available here: " + cause(here.get("problem").toString()) :
                "available here")
            .append('\n')
            .append("  pins memory: ").append(info.pinsMemory() ? "yes" : "no").append('\n')
            .append("  limits: ").append(info.maxSegments()).append(" segments/region, ")
            .append(info.maxRegionsPerEndpoint()).append(" regions/endpoint, ").append(info.maxEndpointsPerBoard())
            .append(" endpoints/board\n")
            .append("  frame payload bytes: medium fragment ").append(info.mediumFragPayloadBytes())
            .append(", pull reply ").append(info.pullReplyPayloadBytes()).append('\n')
            .append("  features: ").append(features).append('\n');
        return JsonWriter.object("name", info.providerName(), "description", info.chosenBecause(),
            "pinsMemory", info.pinsMemory(), "maxSegments", info.maxSegments(),
            "maxRegionsPerEndpoint", info.maxRegionsPerEndpoint(), "maxEndpointsPerBoard", info.maxEndpointsPerBoard(),
            "mediumFragPayloadBytes", info.mediumFragPayloadBytes(), "pullReplyPayloadBytes",
            info.pullReplyPayloadBytes(), "features", info.features().stream().sorted().map(DriverFeature::name).toList());
    }

    /** What a provider moves frames over and whether it pins, in words, from its features. */
    private static String carries(final DriverInfo info)
    {
        final List<String> over = new ArrayList<>();
        if (info.features().contains(DriverFeature.UDP))
        {
            over.add("UDP");
        }
        if (info.features().contains(DriverFeature.SAME_HOST_SHM))
        {
            over.add("same-host shared memory");
        }
        if (info.features().contains(DriverFeature.ETHERNET))
        {
            over.add("Ethernet frames through pinmx.ko");
        }
        return (over.isEmpty() ? "" : String.join(" and ", over) + ", ") +
            (info.pinsMemory() ? "pins the memory it moves" : "never pins memory");
    }

    /** A job takes PINMX_DRIVER, or bin/pinmx-run's default; a program calling DriverSelector alone defaults to auto. */
    private Map<String, Object> selection(final StringBuilder text)
    {
        final String variable = env.get(DriverSelector.VARIABLE);
        final String jobChoice = null == variable ? JOB_DEFAULT_DRIVER : variable;
        final String forcedBy = null == variable ? "bin/pinmx-run's default (PINMX_DRIVER unset)" :
            DriverSelector.VARIABLE + "=" + variable;
        final Map<String, Object> job = choose(jobChoice, forcedBy);
        final Map<String, Object> auto = choose("auto", null);
        final String why = null == variable ?
            "bin/pinmx-run uses it unless --driver kernel or PINMX_DRIVER asks for another" :
            DriverSelector.VARIABLE + "=" + variable + " asks for " + ("auto".equals(variable) ?
                "the kernel's where pinmx.ko runs, else the user's" : "it");
        text.append("a job here would use: ").append(null == job.get("provider") ? "nothing: " + job.get("problem") :
                "the " + job.get("provider") + " driver, because " + why).append('\n')
            .append("with PINMX_DRIVER=auto it would use: ").append(null == auto.get("provider") ?
                "nothing: " + auto.get("problem") : "the " + auto.get("provider") + " driver, because " +
                reason(auto.get("reason").toString())).append('\n')
            .append("progress: an endpoint's own progress thread by default (the one-sided layer's too); the " +
                "benchmarks' pinmx transport polls from the benchmark's thread; MPJ programs as PINMX_MPJ_PROGRESS " +
                "says (caller, the default: a waiting call polls, then blocks)\n");
        return JsonWriter.object(DriverSelector.VARIABLE, variable, "job", job, "auto", auto);
    }

    /** @return a selection's refusal without its "X driver forced by Y cannot run: " start. */
    private static String cause(final String problem)
    {
        final int at = problem.indexOf(CANNOT_RUN);
        return at < 0 ? problem : problem.substring(at + CANNOT_RUN.length());
    }

    /** @return the provider's "chosen because ..." clause alone, else its whole description. */
    private static String reason(final String chosenBecause)
    {
        final int start = chosenBecause.indexOf(CHOSEN_BECAUSE);
        if (start < 0)
        {
            return chosenBecause;
        }
        final int end = chosenBecause.indexOf("; ", start);
        return chosenBecause.substring(start + CHOSEN_BECAUSE.length(), end < 0 ? chosenBecause.length() : end);
    }

    private static Map<String, Object> choose(final String choice, final String forcedBy)
    {
        try
        {
            final DriverInfo info = DriverSelector.select(choice, forcedBy).info();
            return JsonWriter.object("provider", info.providerName(), "reason", info.chosenBecause());
        }
        catch (final DriverException ex)
        {
            return JsonWriter.object("provider", null, "problem", ex.getMessage());
        }
    }

    private Map<String, Object> module(final StringBuilder text)
    {
        if (!module.loaded())
        {
            text.append("kernel module: not loaded (no /sys/module/pinmx)\n");
            return JsonWriter.object("loaded", false);
        }
        text.append("kernel module pinmx.ko ").append(module.version().isEmpty() ? "(no version)" : module.version())
            .append('\n');
        final Map<String, Object> json = JsonWriter.object("loaded", true, "version", module.version());
        if (null == module.deviceProblem())
        {
            text.append("  ABI version ").append(module.abiVersion()).append(" (this library: ")
                .append(PinmxAbi.ABI_VERSION).append(")\n  features: ").append(module.featureNames())
                .append("\n  limits: ").append(module.maxSegments()).append(" segments/region, ")
                .append(module.maxRegions()).append(" regions/endpoint\n");
            json.put("abiVersion", module.abiVersion());
            json.put("libraryAbiVersion", PinmxAbi.ABI_VERSION);
            json.put("features", List.of(module.featureNames().split("\\|")));
            json.put("maxSegments", module.maxSegments());
            json.put("maxRegions", module.maxRegions());
        }
        else
        {
            text.append("  ").append(module.deviceProblem()).append('\n');
            json.put("deviceProblem", module.deviceProblem());
        }
        text.append("  parameters:");
        module.parameters().forEach((name, value) -> text.append(' ').append(name).append('=').append(value));
        text.append('\n');
        json.put("parameters", module.parameters());
        if (null == module.debugfsProblem())
        {
            final List<Object> interfaces = new ArrayList<>();
            text.append("  attached interfaces:").append(module.interfaces().isEmpty() ? " none" : "").append('\n');
            for (final KernelModuleStatus.Interface i : module.interfaces())
            {
                final long bound = module.endpoints().stream().filter(e -> e.iface().equals(i.name())).count();
                text.append("    ").append(i.name()).append(" ifindex ").append(i.ifindex()).append(" mtu ")
                    .append(i.mtu()).append(" mac ").append(i.mac()).append(", ").append(bound)
                    .append(" endpoints bound\n");
                interfaces.add(JsonWriter.object("name", i.name(), "ifindex", i.ifindex(), "mtu", i.mtu(),
                    "mac", i.mac(), "endpointsBound", bound));
            }
            json.put("interfaces", interfaces);
        }
        else
        {
            text.append("  attached interfaces: unknown: ").append(module.debugfsProblem()).append('\n');
            json.put("interfacesProblem", module.debugfsProblem());
        }
        return json;
    }

    private static Map<String, Object> file(final Path path)
    {
        return JsonWriter.object("path", path.toString(), "exists", Files.exists(path));
    }
}
