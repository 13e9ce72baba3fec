namespace DivCon.Harness.Schemes;

/// <summary>
/// The harness's view of a MultiProgramScheduler (one pinned worker pool shared by programs, each with its own
/// TaskScheduler, cores divided by a partitioning policy). An adapter over the real type is a few lines; the
/// partitioned schemes are written against this.
/// </summary>
public interface IMultiprogramPool : IDisposable
{
    /// <summary>Registers a program with its scalability (null: estimated online) and returns the TaskScheduler it issues its tasks to.</summary>
    TaskScheduler AddProgram(string name, double? scalability);

    /// <summary>What the pool reports for the program registered <paramref name="program"/>-th (0-based).</summary>
    SchedulerStats StatsFor(int program);

    /// <summary>See <see cref="SchedulerArrangement.OnRunStopping"/>. Nothing to do by default.</summary>
    void OnRunStopping(int program)
    {
    }
}
