namespace DivCon.Partitioning;

/// <summary>
/// A fixed number of cores per program id, set from outside (replace the policy to change it). Programs not listed
/// get none. When the counts of the programs present do not add up to the cores, <see cref="Decide"/> throws
/// <see cref="InvalidOperationException"/> saying so, and the repartitioner rejects the decision (keeping the
/// allocation in force): a fixed allocation is a statement, not a suggestion.
/// </summary>
public sealed class FixedAllocationPolicy : IPartitioningPolicy
{
    /// <summary>The name used in reports and on the command line (<c>fixed:4,6,6</c> in <see cref="PartitioningPolicies.Create"/>).</summary>
    public const string PolicyName = "fixed";

    private readonly Dictionary<int, int> _cores;

    /// <summary>Creates the policy.</summary>
    /// <param name="coresByProgramId">Cores per program id; each count from 0 up.</param>
    public FixedAllocationPolicy(IReadOnlyDictionary<int, int> coresByProgramId)
    {
        ArgumentNullException.ThrowIfNull(coresByProgramId);
        foreach ((int id, int cores) in coresByProgramId)
        {
            if (cores < 0)
            {
                throw new ArgumentOutOfRangeException(nameof(coresByProgramId), cores, $"Program {id}'s core count must not be negative.");
            }
        }

        _cores = new Dictionary<int, int>(coresByProgramId);
    }

    /// <inheritdoc/>
    public string Name => PolicyName;

    /// <inheritdoc/>
    /// <remarks>None: the counts are applied as given, also with fewer cores than programs.</remarks>
    public RotationScope Rotation => RotationScope.None;

    /// <summary>The counts, per program id.</summary>
    public IReadOnlyDictionary<int, int> CoresByProgramId => _cores;

    /// <inheritdoc/>
    /// <remarks>Postconditions: one share per program summing to the cores, each exactly its fixed count (its cap).</remarks>
    public Shares Decide(PartitioningInput input)
    {
        ArgumentNullException.ThrowIfNull(input);
        int[] counts = input.Programs.Select(p => _cores.GetValueOrDefault(p.ProgramId)).ToArray();
        if (input.Programs.Count > 0 && counts.Sum() != input.Cores)
        {
            throw new InvalidOperationException(
                $"The fixed allocation gives {counts.Sum()} cores to the {input.Programs.Count} programs present, but there are {input.Cores}.");
        }

        return Shares.FromCounts(input, counts, reason: AllocationReason.Fixed).Checked(input, PolicyName);
    }
}
