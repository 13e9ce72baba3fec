using DivCon.Partitioning;

namespace DivCon.Multiprogramming;

/// <summary>
/// A fixed number of worker slots per program id, set from outside (replace the policy to change it). Programs not
/// listed get none. When the counts of the programs present do not add up to the cores, <see cref="Decide"/>
/// throws <see cref="InvalidOperationException"/> saying so, and the scheduler rejects the decision (keeping the
/// allocation in force): a fixed allocation is a statement, not a suggestion. Placement
/// keeps workers where they were as far as the counts allow (<see cref="MinimalMovePlacement"/>).
/// </summary>
public sealed class FixedAllocationPolicy : IPartitioningPolicy
{
    private readonly Dictionary<int, int> _cores;

    /// <summary>Creates the policy.</summary>
    /// <param name="coresByProgramId">Worker slots per program id; each count from 0 up.</param>
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
    public string Name => "fixed";

    /// <summary>The counts, per program id.</summary>
    public IReadOnlyDictionary<int, int> CoresByProgramId => _cores;

    /// <inheritdoc/>
    public Allocation Decide(PartitioningInput input)
    {
        ArgumentNullException.ThrowIfNull(input);
        int[] counts = input.Programs.Select(p => _cores.GetValueOrDefault(p.ProgramId)).ToArray();
        if (input.Programs.Count > 0 && counts.Sum() != input.Cores)
        {
            throw new InvalidOperationException(
                $"The fixed allocation gives {counts.Sum()} cores to the {input.Programs.Count} programs present, but there are {input.Cores}.");
        }

        return MinimalMovePlacement.Place(input, counts, AllocationReason.Fixed);
    }
}
