namespace DivCon.Partitioning;

/// <summary>The selectable policies by name, for the CLI and the harness.</summary>
public static class PartitioningPolicies
{
    /// <summary>Every policy name, in the order reports list them.</summary>
    public static IReadOnlyList<string> Names { get; } =
    [
        ScalabilityPolicy.PolicyName,
        TaskAvailabilityPolicy.PolicyName,
        HillClimbingPolicy.PolicyName,
        IdleLendingPolicy.PolicyName,
    ];

    /// <summary>The policy called <paramref name="name"/> (case-insensitive).</summary>
    /// <exception cref="ArgumentException">No policy has that name; the message lists the names allowed.</exception>
    public static IPartitioningPolicy Create(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        return name.ToLowerInvariant() switch
        {
            ScalabilityPolicy.PolicyName => new ScalabilityPolicy(),
            TaskAvailabilityPolicy.PolicyName => new TaskAvailabilityPolicy(),
            HillClimbingPolicy.PolicyName => new HillClimbingPolicy(),
            IdleLendingPolicy.PolicyName => new IdleLendingPolicy(),
            _ => throw new ArgumentException($"Unknown policy '{name}'; use one of: {string.Join(", ", Names)}.", nameof(name)),
        };
    }
}
