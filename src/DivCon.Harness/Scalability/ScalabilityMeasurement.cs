using DivCon.Partitioning;

namespace DivCon.Harness.Scalability;

/// <summary>A program's measured scalability on one machine: the sequential baseline and speedups at some core counts.</summary>
/// <param name="Program">The program's catalogue name.</param>
/// <param name="Size">The problem size name.</param>
/// <param name="Machine">Where it was measured.</param>
/// <param name="Runs">Timed runs averaged per point (after the warm-up runs).</param>
/// <param name="SequentialSeconds">Mean wall time of the sequential baseline (T_s).</param>
/// <param name="Points">Speedups by core count, ascending.</param>
/// <param name="MeasuredAtUtc">When the last point was measured.</param>
public sealed record ScalabilityMeasurement(
    string Program,
    string Size,
    MachineIdentity Machine,
    int Runs,
    double SequentialSeconds,
    IReadOnlyList<ScalabilityPoint> Points,
    DateTime MeasuredAtUtc)
{
    /// <summary>The speedup at the largest measured core count: the thesis's single scalability value (§5.3.2).</summary>
    public double Scalability => Points.Count == 0
        ? throw new InvalidOperationException("The measurement has no parallel point.")
        : Points[^1].Speedup;

    /// <summary>The points as a table for hill climbing.</summary>
    public ScalabilityTable ToTable() => new(Points.Select(p => (p.Cores, p.Speedup)));

    /// <summary>What a partitioning policy needs about this program: its scalability and its table.</summary>
    /// <param name="programId">The program's id in the decision.</param>
    /// <param name="availableTasks">Its available tasks at the decision (non-negative).</param>
    public ProgramLoad ToProgramLoad(int programId, int availableTasks = 0)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(availableTasks);
        return new ProgramLoad(programId, Scalability, availableTasks, ToTable());
    }
}
