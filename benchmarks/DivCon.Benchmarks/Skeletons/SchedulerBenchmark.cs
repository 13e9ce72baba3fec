using BenchmarkDotNet.Attributes;

namespace DivCon.Benchmarks.Skeletons;

/// <summary>
/// The base of the skeleton benchmarks that run on a scheduler chosen by name (<see cref="Scheduler"/>, one of
/// <see cref="BenchmarkSchedulers"/>): global setup makes the scheduler, then the derived class's programs
/// (<see cref="SetUpPrograms"/>); global cleanup checks them (<see cref="CheckPrograms"/>), then releases the scheduler.
/// </summary>
public abstract class SchedulerBenchmark
{
    // The columns of the summary in the order program, scheduler, size, then the derived class's own parameters
    // (BenchmarkDotNet would otherwise list a derived class's parameters before its base's).
    internal const int ProgramPriority = -3;
    internal const int SchedulerPriority = -2;
    internal const int SizePriority = -1;

    private Action? _release;

    [Params("pair2", "ws2", Priority = SchedulerPriority)]
    public string Scheduler { get; set; } = "pair2";

    /// <summary>The scheduler made from <see cref="Scheduler"/> (by <see cref="Setup"/>).</summary>
    protected TaskScheduler TaskScheduler { get; private set; } = null!;

    [GlobalSetup]
    public void Setup()
    {
        (TaskScheduler, _release) = BenchmarkSchedulers.Create(Scheduler);
        SetUpPrograms();
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        CheckPrograms();
        _release?.Invoke();
    }

    /// <summary>Makes the programs and their data (after the scheduler, before anything is timed).</summary>
    protected abstract void SetUpPrograms();

    /// <summary>Throws if the last runs computed a wrong result (so a wrong result fails the run instead of being reported as a time).</summary>
    protected virtual void CheckPrograms()
    {
    }
}
