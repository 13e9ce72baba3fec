using System.Globalization;

namespace DivCon.Partitioning;

/// <summary>The selectable policies by name, for the CLI, the harness and the simulator: every policy can be simulated.</summary>
public static class PartitioningPolicies
{
    /// <summary>Every policy name that needs no argument, in the order reports list them.</summary>
    public static IReadOnlyList<string> Names { get; } =
    [
        ScalabilityPolicy.PolicyName,
        TaskAvailabilityPolicy.PolicyName,
        HillClimbingPolicy.PolicyName,
        EqualSharesPolicy.PolicyName,
        IdleLendingPolicy.PolicyName,
        WorkConservingPolicy.PolicyName,
    ];

    /// <summary>
    /// The policy called <paramref name="name"/> (case-insensitive), or a fixed allocation written
    /// <c>fixed:c1,c2,…</c>: c1 cores for program id 0, c2 for id 1, … (ids in arrival order, from 0, as the
    /// MultiProgramScheduler and the simulator number programs).
    /// </summary>
    /// <exception cref="ArgumentException">No policy has that name, or the fixed counts are not non-negative integers; the message lists what is allowed.</exception>
    public static IPartitioningPolicy Create(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        string lower = name.Trim().ToLowerInvariant();
        if (lower.StartsWith(FixedAllocationPolicy.PolicyName + ":", StringComparison.Ordinal))
        {
            string[] parts = lower[(FixedAllocationPolicy.PolicyName.Length + 1)..].Split(',');
            var cores = new Dictionary<int, int>();
            for (int id = 0; id < parts.Length; id++)
            {
                if (!int.TryParse(parts[id], NumberStyles.None, CultureInfo.InvariantCulture, out int c))
                {
                    throw new ArgumentException($"'{name}': each count of a fixed allocation must be a non-negative integer (fixed:4,6,6).", nameof(name));
                }

                cores[id] = c;
            }

            return new FixedAllocationPolicy(cores);
        }

        return lower switch
        {
            ScalabilityPolicy.PolicyName => new ScalabilityPolicy(),
            TaskAvailabilityPolicy.PolicyName => new TaskAvailabilityPolicy(),
            HillClimbingPolicy.PolicyName => new HillClimbingPolicy(),
            EqualSharesPolicy.PolicyName => new EqualSharesPolicy(),
            IdleLendingPolicy.PolicyName => new IdleLendingPolicy(),
            WorkConservingPolicy.PolicyName => new WorkConservingPolicy(),
            _ => throw new ArgumentException($"Unknown policy '{name}'; use one of: {string.Join(", ", Names)}, or fixed:c1,c2,… (cores per program id).", nameof(name)),
        };
    }
}
