namespace DivCon.Partitioning;

/// <summary>
/// A policy's decision: which program each worker slot serves, and why. Immutable; the MultiProgramScheduler
/// publishes it as a snapshot that workers read between tasks.
/// </summary>
public sealed class Allocation
{
    private readonly int[] _owners;
    private readonly AllocationReason[] _reasons;
    private readonly int[] _counts;

    /// <summary>Creates an allocation.</summary>
    /// <param name="programCount">How many programs the decision was for.</param>
    /// <param name="workerOwners">Per worker slot: the index of the program it serves, or -1 for none.</param>
    /// <param name="reasons">Per worker slot: why; <see langword="null"/> for <see cref="AllocationReason.None"/> everywhere.</param>
    public Allocation(int programCount, IReadOnlyList<int> workerOwners, IReadOnlyList<AllocationReason>? reasons = null)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(programCount);
        ArgumentNullException.ThrowIfNull(workerOwners);
        if (reasons is not null && reasons.Count != workerOwners.Count)
        {
            throw new ArgumentException(
                $"There are {workerOwners.Count} worker slots but {reasons.Count} reasons.", nameof(reasons));
        }

        _owners = workerOwners.ToArray();
        _reasons = reasons?.ToArray() ?? new AllocationReason[_owners.Length];
        _counts = new int[programCount];
        foreach (int owner in _owners)
        {
            if (owner < -1 || owner >= programCount)
            {
                throw new ArgumentOutOfRangeException(
                    nameof(workerOwners), owner, $"A worker slot's owner must be -1 (none) or a program index in 0..{programCount - 1}.");
            }

            if (owner >= 0)
            {
                _counts[owner]++;
            }
        }
    }

    /// <summary>Per worker slot: the index of the program it serves, or -1 for none.</summary>
    public IReadOnlyList<int> WorkerOwners => _owners;

    /// <summary>Per worker slot: why it serves that program.</summary>
    public IReadOnlyList<AllocationReason> Reasons => _reasons;

    /// <summary>Per program index: how many worker slots it holds.</summary>
    public IReadOnlyList<int> Counts => _counts;

    /// <summary>How many programs the decision was for.</summary>
    public int ProgramCount => _counts.Length;

    /// <summary>
    /// The problems that make this allocation unusable for <paramref name="input"/>, each as one sentence; empty when
    /// it is valid. Valid means: one owner per worker slot of the input, every program index known, and every slot
    /// assigned whenever there is at least one program.
    /// </summary>
    public IReadOnlyList<string> Validate(PartitioningInput input)
    {
        ArgumentNullException.ThrowIfNull(input);
        var problems = new List<string>();
        if (_owners.Length != input.Cores)
        {
            problems.Add($"The allocation covers {_owners.Length} worker slots but there are {input.Cores}.");
        }

        if (_counts.Length != input.Programs.Count)
        {
            problems.Add($"The allocation is for {_counts.Length} programs but there are {input.Programs.Count}.");
        }

        if (input.Programs.Count > 0)
        {
            int unassigned = _owners.Count(o => o < 0);
            if (unassigned > 0)
            {
                problems.Add($"{unassigned} worker slot(s) are assigned to no program although {input.Programs.Count} program(s) exist.");
            }
        }

        return problems;
    }

    /// <summary>
    /// Worker moves needed to go from <paramref name="previous"/> to this allocation: the number of slots whose owner
    /// differs. Both must cover the same slots and index programs the same way.
    /// </summary>
    public int MovesFrom(Allocation previous)
    {
        ArgumentNullException.ThrowIfNull(previous);
        if (previous._owners.Length != _owners.Length)
        {
            throw new ArgumentException("Both allocations must cover the same worker slots.", nameof(previous));
        }

        int moves = 0;
        for (int i = 0; i < _owners.Length; i++)
        {
            if (previous._owners[i] != _owners[i])
            {
                moves++;
            }
        }

        return moves;
    }
}
