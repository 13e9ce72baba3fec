using DivCon.Partitioning;
using DivCon.Simulation.Engine;

namespace DivCon.Simulation;

/// <summary>
/// The schemes the simulator runs (the harness's schemes, DESIGN.md §7). The TPL default scheme is not simulated:
/// under the asynchronous skeleton no worker ever blocks inside a task, so the thread pool's hill-climbing injection
/// has nothing to react to and its queues (per-thread LIFO, global FIFO, stealing) are the shared scheme's; a model
/// of its differences (unpinned threads, injection heuristics) would be invented numbers.
/// </summary>
public static class SimulationSchemes
{
    /// <summary>One free work-stealing scheduler per program with a worker per core; the OS time-slices and migrates the threads.</summary>
    public const string OversubscribedFree = "oversubscribed-free";

    /// <summary>One scheduler per program with a worker pinned to each core; each core time-slices its workers.</summary>
    public const string OversubscribedPinned = "oversubscribed-pinned";

    /// <summary>One pinned work-stealing scheduler for every program's tasks.</summary>
    public const string Shared = "shared";

    /// <summary>The MultiProgramScheduler with scalability shares decided once (<see cref="ScalabilityPolicy"/>).</summary>
    public const string StaticPartitioned = "static-partitioned";

    /// <summary>The MultiProgramScheduler repartitioned every interval by task availability (<see cref="TaskAvailabilityPolicy"/>, Figure 5.20).</summary>
    public const string DynamicPartitioned = "dynamic-partitioned";

    /// <summary>
    /// Every scheme name: the five above (named as the harness names them), then one MultiProgramScheduler scheme per
    /// further policy of <see cref="PartitioningPolicies.Names"/> (named after the policy), asked again every interval.
    /// </summary>
    public static IReadOnlyList<string> Names { get; } =
        new[] { OversubscribedFree, OversubscribedPinned, Shared, StaticPartitioned, DynamicPartitioned }
            .Concat(PartitioningPolicies.Names.Where(n => n is not ScalabilityPolicy.PolicyName and not TaskAvailabilityPolicy.PolicyName))
            .ToArray();

    /// <summary>Whether <paramref name="name"/> is a scheme (case-sensitive, as listed in <see cref="Names"/>).</summary>
    public static bool IsKnown(string name) => Names.Contains(name, StringComparer.Ordinal);

    internal static (Arrangement Arrangement, PartitioningSetup? Partitioning) Resolve(string name) => name switch
    {
        OversubscribedFree => (Arrangement.OversubscribedFree, null),
        OversubscribedPinned => (Arrangement.OversubscribedPinned, null),
        Shared => (Arrangement.SharedPool, null),
        // Ticks like the harness's static-partitioned scheme (a MultiProgramScheduler with the ScalabilityPolicy and the
        // 100 ms interval): the shares never change, but with fewer cores than programs the ticks rotate the cores, so no
        // program is starved for good.
        StaticPartitioned => (Arrangement.Partitioned, new PartitioningSetup(PartitioningPolicies.Create(ScalabilityPolicy.PolicyName), Ticks: true)),
        DynamicPartitioned => (Arrangement.Partitioned, new PartitioningSetup(PartitioningPolicies.Create(TaskAvailabilityPolicy.PolicyName), Ticks: true)),
        _ when IsKnown(name) => (Arrangement.Partitioned, new PartitioningSetup(PartitioningPolicies.Create(name), Ticks: true)),
        _ => throw new ArgumentException($"Unknown scheme '{name}'; use one of: {string.Join(", ", Names)}.", nameof(name)),
    };
}
