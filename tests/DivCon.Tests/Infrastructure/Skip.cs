using System.Reflection;
using DivCon.Scheduling;
using Xunit.Sdk;

namespace DivCon.Tests.Infrastructure;

/// <summary>
/// Tests that cannot run on this machine report Skipped with their reason instead of returning early as Passed. xUnit
/// 2.9 has no dynamic skip, so the condition is evaluated where the attribute is built (as StressFactAttribute does).
/// </summary>
public static class MachineRequirements
{
    /// <summary>Processors this process may run on.</summary>
    public static int Processors => ThreadAffinity.GetProcessAffinity().Count;

    /// <summary>The reason to skip, or null when this process may use <paramref name="processors"/> processors (and pin, if asked).</summary>
    public static string? Missing(int processors, bool pinning = false)
    {
        if (Processors < processors)
        {
            return $"needs {processors} processors; this process may use {Processors}";
        }

        return pinning && !ThreadAffinity.IsSupported ? "needs thread pinning, which this platform does not support" : null;
    }
}

/// <summary>A fact that needs this many processors (and pinning, if asked); Skipped otherwise.</summary>
public sealed class ProcessorFactAttribute : FactAttribute
{
    public ProcessorFactAttribute(int processors, bool pinning = false)
    {
        if (MachineRequirements.Missing(processors, pinning) is { } reason)
        {
            Skip = reason;
        }
    }
}

/// <summary>A theory that needs this many processors (and pinning, if asked); Skipped otherwise.</summary>
public sealed class ProcessorTheoryAttribute : TheoryAttribute
{
    public ProcessorTheoryAttribute(int processors, bool pinning = false)
    {
        if (MachineRequirements.Missing(processors, pinning) is { } reason)
        {
            Skip = reason;
        }
    }
}

/// <summary>One theory row (a worker count) that needs that many processors; the row is Skipped otherwise.</summary>
public sealed class WorkersDataAttribute : DataAttribute
{
    private readonly int _workers;

    public WorkersDataAttribute(int workers)
    {
        _workers = workers;
        if (MachineRequirements.Missing(workers) is { } reason)
        {
            Skip = reason;
        }
    }

    public override IEnumerable<object[]> GetData(MethodInfo testMethod) => [[_workers]];
}

/// <summary>A fact that runs only when an environment variable is set (a replay tool); Skipped otherwise.</summary>
public sealed class EnvironmentFactAttribute : FactAttribute
{
    public EnvironmentFactAttribute(string variable)
    {
        if (Environment.GetEnvironmentVariable(variable) is null)
        {
            Skip = $"set {variable} to run it";
        }
    }
}

/// <summary>
/// Disposes a scheduler on another thread with a time limit: a Dispose that deadlocks fails the test instead of
/// hanging the run. <c>using var s = new …; using var sDisposal = BoundedDisposal.Of(s);</c> (a second Dispose of a
/// DivCon scheduler does nothing, so the order of the two is free).
/// </summary>
public sealed class BoundedDisposal(IDisposable target, TimeSpan timeout) : IDisposable
{
    public static BoundedDisposal Of(IDisposable target) => new(target, TimeSpan.FromSeconds(60));

    public void Dispose()
        => Assert.True(Task.Run(target.Dispose).Wait(timeout), $"{target.GetType().Name}.Dispose did not return within {timeout.TotalSeconds} s.");
}

/// <summary>A fact that needs Linux's <c>/proc/self/task</c> (thread states); Skipped elsewhere.</summary>
public sealed class LinuxProcFactAttribute : FactAttribute
{
    public LinuxProcFactAttribute()
    {
        if (!OperatingSystem.IsLinux() || !Directory.Exists("/proc/self/task"))
        {
            Skip = "needs Linux with /proc mounted (thread states)";
        }
    }
}
