namespace DivCon.Partitioning;

/// <summary>
/// A placed decision: which program (by id) each worker slot serves, and why. Immutable; the
/// <see cref="Repartitioner"/> produces it from a policy's <see cref="Shares"/>, and the MultiProgramScheduler
/// publishes it as a snapshot that workers read between tasks.
/// </summary>
public sealed class Allocation
{
    private readonly int[] _programIds;
    private readonly int[] _owners;
    private readonly AllocationReason[] _reasons;
    private readonly int[] _counts;
    private readonly Dictionary<int, int> _indexOf;
    private readonly int[] _ownerIndex; // per slot, the owner's position in _programIds, or -1

    /// <summary>Creates an allocation.</summary>
    /// <param name="programIds">The programs the decision was for (distinct ids, in the decision's order).</param>
    /// <param name="workerOwners">Per worker slot: the id of the program it serves, or -1 for none.</param>
    /// <param name="reasons">Per worker slot: why; <see langword="null"/> for <see cref="AllocationReason.None"/> everywhere.</param>
    /// <exception cref="ArgumentException">A repeated id, an owner that is not one of <paramref name="programIds"/>, or a reason count that differs from the slots.</exception>
    public Allocation(IReadOnlyList<int> programIds, IReadOnlyList<int> workerOwners, IReadOnlyList<AllocationReason>? reasons = null)
    {
        ArgumentNullException.ThrowIfNull(programIds);
        ArgumentNullException.ThrowIfNull(workerOwners);
        if (reasons is not null && reasons.Count != workerOwners.Count)
        {
            throw new ArgumentException($"There are {workerOwners.Count} worker slots but {reasons.Count} reasons.", nameof(reasons));
        }

        _programIds = [.. programIds];
        _owners = [.. workerOwners];
        _reasons = reasons is null ? new AllocationReason[_owners.Length] : [.. reasons];
        (_indexOf, _counts, _ownerIndex) = Index(_programIds, _owners);
    }

    /// <summary>
    /// The placement's constructor: takes ownership of the three arrays (no copy; the caller never writes them again)
    /// and checks the same rules as the public one.
    /// </summary>
    internal Allocation(int[] programIds, int[] workerOwners, AllocationReason[] reasons, bool owned)
    {
        System.Diagnostics.Debug.Assert(owned && reasons.Length == workerOwners.Length, "the placement passes one reason per slot");
        _programIds = programIds;
        _owners = workerOwners;
        _reasons = reasons;
        (_indexOf, _counts, _ownerIndex) = Index(_programIds, _owners);
    }

    private static (Dictionary<int, int> IndexOf, int[] Counts, int[] OwnerIndex) Index(int[] programIds, int[] workerOwners)
    {
        var indexOf = new Dictionary<int, int>(programIds.Length);
        for (int i = 0; i < programIds.Length; i++)
        {
            if (!indexOf.TryAdd(programIds[i], i))
            {
                throw new ArgumentException($"Program id {programIds[i]} appears twice; ids must be distinct.", nameof(programIds));
            }
        }

        var counts = new int[programIds.Length];
        var ownerIndex = new int[workerOwners.Length];
        for (int slot = 0; slot < workerOwners.Length; slot++)
        {
            int owner = workerOwners[slot];
            ownerIndex[slot] = -1;
            if (owner == -1)
            {
                continue;
            }

            if (!indexOf.TryGetValue(owner, out int index))
            {
                throw new ArgumentException($"A worker slot is owned by program id {owner}, which is not one of the decision's programs.", nameof(workerOwners));
            }

            counts[index]++;
            ownerIndex[slot] = index;
        }

        return (indexOf, counts, ownerIndex);
    }

    /// <summary>The programs the decision was for, in its order.</summary>
    public IReadOnlyList<int> ProgramIds => _programIds;

    /// <summary>Per worker slot: the id of the program it serves, or -1 for none.</summary>
    public IReadOnlyList<int> WorkerOwners => _owners;

    /// <summary>Per worker slot: why it serves that program.</summary>
    public IReadOnlyList<AllocationReason> Reasons => _reasons;

    /// <summary>Per program, in <see cref="ProgramIds"/> order: how many worker slots it holds.</summary>
    public IReadOnlyList<int> Counts => _counts;

    /// <summary>Worker slots.</summary>
    public int Cores => _owners.Length;

    /// <summary>Whether <paramref name="programId"/> was one of the decision's programs.</summary>
    public bool Contains(int programId) => _indexOf.ContainsKey(programId);

    /// <summary>The position in <see cref="ProgramIds"/> of the program slot <paramref name="slot"/> serves, or -1.</summary>
    internal int OwnerIndexAt(int slot) => _ownerIndex[slot];

    /// <summary>The position of <paramref name="programId"/> in <see cref="ProgramIds"/>, or -1.</summary>
    internal int IndexOf(int programId) => _indexOf.TryGetValue(programId, out int i) ? i : -1;

    /// <summary>How many worker slots <paramref name="programId"/> holds (0 for a program the decision did not know).</summary>
    public int CoresOf(int programId) => _indexOf.TryGetValue(programId, out int i) ? _counts[i] : 0;

    /// <summary>An allocation of <paramref name="cores"/> slots to no program (no program registered).</summary>
    public static Allocation Empty(int cores)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(cores);
        return new Allocation([], Enumerable.Repeat(-1, cores).ToArray());
    }

    /// <summary>Whether the decision was for exactly the programs of <paramref name="programs"/> (in any order).</summary>
    public bool IsFor(IReadOnlyList<ProgramLoad> programs)
    {
        ArgumentNullException.ThrowIfNull(programs);
        if (programs.Count != _programIds.Length)
        {
            return false;
        }

        foreach (ProgramLoad p in programs)
        {
            if (!_indexOf.ContainsKey(p.ProgramId))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>
    /// The problems that make this allocation unusable for <paramref name="input"/>, each as one sentence; empty when
    /// it is valid: one owner per worker slot of the input, every owner one of the input's programs, and every slot
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

        var ids = new HashSet<int>(input.Programs.Select(p => p.ProgramId));
        int unknown = _owners.Count(o => o >= 0 && !ids.Contains(o));
        if (unknown > 0)
        {
            problems.Add($"{unknown} worker slot(s) are given to a program id that is not in the input.");
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

    /// <summary>Worker moves needed to go from <paramref name="previous"/> to this allocation: the slots whose owner differs.</summary>
    /// <exception cref="ArgumentException">The two cover different numbers of worker slots.</exception>
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
