namespace DivCon.Partitioning;

/// <summary>
/// Everything between "the programs' loads" and "the allocation to apply", once, for every policy and every
/// mechanism: the MultiProgramScheduler and the simulator both call it. Pure: the result depends
/// only on the arguments; it never touches a thread.
/// </summary>
/// <remarks>
/// <para>Steps, in order:</para>
/// <list type="number">
/// <item><b>Input.</b> A <see cref="PartitioningInput"/> of the cores, the loads, the cache groups and the allocation
/// in force (keyed by program id). No program: every slot to none, and the policy is not asked.</item>
/// <item><b>Decide.</b> The policy's <see cref="Shares"/>. It asserts its own postconditions; the contract every
/// decision keeps (one share per program, Σ = cores: <see cref="Shares.Problems"/>) is checked here again, for
/// policies written elsewhere.</item>
/// <item><b>Reject.</b> A policy that throws, returns null or breaks the contract is rejected, with one sentence why.
/// When the programs are those of the allocation in force, that allocation is kept; when one arrived or left, it no
/// longer fits them, and equal shares (<see cref="EqualSharesPolicy"/>) are used instead.</item>
/// <item><b>Rotate.</b> With fewer cores than programs that want one (<see cref="IPartitioningPolicy.Rotation"/>),
/// the single cores rotate (<see cref="Rotation"/>); a policy whose scope is <see cref="RotationScope.None"/> (a fixed
/// allocation) is not rotated.</item>
/// <item><b>Probe.</b> The online estimator's probes (<see cref="Estimation.ProbeAllocation"/>), when given: a probed
/// program holds its requested cores for the tick, taken from (or given to) the others; those cores' reason is
/// <see cref="AllocationReason.Probe"/>. Donors keep a core unless there are more programs than cores.</item>
/// <item><b>Newcomers first.</b> With a positive <see cref="NewcomerQuantum"/>, programs whose attained service
/// (<see cref="ProgramLoad.AttainedService"/>) is below it and that have work (tasks queued or running) hold the cores, equal among them,
/// least attained first (<see cref="NewcomerPriority"/>); those cores' reason is <see cref="AllocationReason.Newcomer"/>.
/// Not for a policy whose scope is <see cref="RotationScope.None"/> (a fixed allocation is the user's).</item>
/// <item><b>Place.</b> Shares become worker slots (<see cref="Placement"/>: as few moves as possible, whole cache
/// groups first).</item>
/// <item><b>Serve removing programs</b> (required: a removal always finishes). A program in <c>mustServe</c> (being
/// removed, tasks outstanding) that holds no slot gets one, taken from the program holding the most (reason
/// <see cref="AllocationReason.ProgramExit"/>). Without it a policy that starves the program (a fixed allocation, an
/// availability cap reading zero while a task runs) would make its removal wait forever.</item>
/// </list>
/// <para>Threading: required: one <see cref="Decide"/> at a time per instance (its working buffers are reused between
/// decisions). The MultiProgramScheduler calls it under its lock (Mover), the simulator from its single thread; each
/// owns its own repartitioner. A decision still depends only on its arguments.</para>
/// </remarks>
public sealed class Repartitioner
{
    private static readonly EqualSharesPolicy s_fallback = new();

    // Reused between decisions (required: one decision at a time, see the remarks); nothing in them reaches a result.
    private readonly PlacementScratch _placement = new();
    private readonly HashSet<int> _ids = [];

    /// <summary>Creates a repartitioner for <paramref name="cores"/> worker slots.</summary>
    /// <param name="cores">Worker slots; positive.</param>
    /// <param name="cacheGroups">Slots grouped by shared last-level cache (every slot in exactly one group), or null.</param>
    /// <param name="newcomerQuantum">
    /// The attained service below which a program with work (tasks queued or running) is served first (<see cref="NewcomerPriority"/>);
    /// zero (the default): off.
    /// </param>
    /// <exception cref="ArgumentException">The cores or the groups are invalid; the message says what is allowed.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="newcomerQuantum"/> is negative.</exception>
    public Repartitioner(int cores, IReadOnlyList<IReadOnlyList<int>>? cacheGroups = null, TimeSpan newcomerQuantum = default)
    {
        PartitioningValidation.ThrowIfInvalid(new PartitioningInput(cores, [], cacheGroups));
        ArgumentOutOfRangeException.ThrowIfLessThan(newcomerQuantum, TimeSpan.Zero);
        Cores = cores;
        CacheGroups = cacheGroups;
        NewcomerQuantum = newcomerQuantum;
    }

    /// <summary>Worker slots.</summary>
    public int Cores { get; }

    /// <summary>Slots grouped by shared last-level cache, or null.</summary>
    public IReadOnlyList<IReadOnlyList<int>>? CacheGroups { get; }

    /// <summary>The attained service below which a program with work is served first; zero: off.</summary>
    public TimeSpan NewcomerQuantum { get; }

    /// <summary>Decides the allocation for <paramref name="programs"/> under <paramref name="policy"/> (see the remarks).</summary>
    /// <param name="policy">The policy to ask.</param>
    /// <param name="programs">The programs' loads, in a stable order (arrival order); ids distinct.</param>
    /// <param name="inForce">The allocation in force, or null before the first decision.</param>
    /// <param name="mustServe">Ids of programs that must hold at least one slot (being removed with tasks outstanding), or null.</param>
    /// <param name="probes">The online estimator's probes to honour on a valid decision, or null.</param>
    /// <param name="awaitingService">
    /// Ids of programs that hold a core in <paramref name="inForce"/> but whose turn has not begun (no worker has reached
    /// them yet, with tasks queued), or null: the rotation lets them keep that core (<see cref="Rotation"/>).
    /// </param>
    /// <exception cref="ArgumentException">The loads are invalid (the mechanism's mistake, not the policy's).</exception>
    public RepartitionResult Decide(
        IPartitioningPolicy policy,
        IReadOnlyList<ProgramLoad> programs,
        Allocation? inForce,
        IReadOnlyCollection<int>? mustServe = null,
        IReadOnlyList<Estimation.ScalabilityProbe>? probes = null,
        IReadOnlyCollection<int>? awaitingService = null)
    {
        ArgumentNullException.ThrowIfNull(policy);
        ArgumentNullException.ThrowIfNull(programs);
        var input = new PartitioningInput(Cores, programs, CacheGroups, inForce);
        if (!PartitioningValidation.IsValid(input, _ids, groupsChecked: true))
        {
            PartitioningValidation.ThrowIfInvalid(input);
        }

        if (programs.Count == 0)
        {
            return new RepartitionResult(Allocation.Empty(Cores), RepartitionOutcome.NoPrograms, null);
        }

        string? rejection;
        Shares? shares = null;
        try
        {
            // The policy's own input check would repeat the one above: mark this input checked for the call.
            PartitioningValidation.MarkChecked(input);
            shares = policy.Decide(input);
            rejection = shares is null ? "it returned null" : string.Join(" ", shares.Problems(input)) is { Length: > 0 } problems ? problems : null;
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            rejection = $"it threw {ex.GetType().Name}: {ex.Message}";
        }
        finally
        {
            PartitioningValidation.MarkChecked(null);
        }

        RepartitionOutcome outcome = RepartitionOutcome.Applied;
        RotationScope scope = policy.Rotation;
        if (rejection is not null)
        {
            if (inForce is not null && inForce.IsFor(programs))
            {
                return new RepartitionResult(ServeRemoving(inForce, programs, mustServe), RepartitionOutcome.Kept, rejection);
            }

            shares = s_fallback.Decide(input); // checks the input again: it is rare
            scope = RotationScope.AllPrograms;
            outcome = RepartitionOutcome.FellBack;
        }

        Shares rotated = Probe(input, Rotate(input, shares!, scope, awaitingService), scope == RotationScope.None ? null : probes);
        if (scope != RotationScope.None)
        {
            rotated = NewcomerPriority.Apply(input, rotated, NewcomerQuantum);
        }

        return new RepartitionResult(ServeRemoving(Placement.PlaceChecked(input, rotated, _placement), programs, mustServe), outcome, rejection);
    }

    private static Shares Rotate(PartitioningInput input, Shares shares, RotationScope scope, IReadOnlyCollection<int>? awaitingService)
    {
        if (scope == RotationScope.None || input.Programs.Count <= input.Cores || input.Previous is null)
        {
            return shares;
        }

        int[] counts = shares.CountsFor(input);
        int[]? rotated = Rotation.Apply(
            input, counts, scope == RotationScope.ProgramsWithTasks ? i => input.Programs[i].AvailableTasks > 0 : _ => true, awaitingService);
        if (rotated is null)
        {
            return shares;
        }

        var reasons = new IReadOnlyList<AllocationReason>[counts.Length];
        for (int i = 0; i < reasons.Length; i++)
        {
            reasons[i] = shares.Find(input.Programs[i].ProgramId)!.CoreReasons;
        }

        return Shares.FromCounts(input, rotated, Rotation.Reasons(rotated, counts, reasons));
    }

    private static Shares Probe(PartitioningInput input, Shares shares, IReadOnlyList<Estimation.ScalabilityProbe>? probes)
    {
        if (probes is null || probes.Count == 0)
        {
            return shares;
        }

        int m = input.Programs.Count;
        int[] counts = shares.CountsFor(input);
        var ids = new int[m];
        for (int i = 0; i < m; i++)
        {
            ids[i] = input.Programs[i].ProgramId;
        }

        // A donor keeps its core unless there are more programs than cores, where the rotation already leaves some without
        // one at every tick (with as many programs as cores a probe would take a latency-sensitive program's only core).
        int[] probed = Estimation.ProbeAllocation.Apply(ids, counts, probes, minimumCores: m > input.Cores ? 0 : 1);
        return shares.WithCounts(input, probed, AllocationReason.Probe);
    }

    /// <summary>The removal override (see the remarks): each program of <paramref name="mustServe"/> without a slot gets one.</summary>
    private static Allocation ServeRemoving(Allocation allocation, IReadOnlyList<ProgramLoad> programs, IReadOnlyCollection<int>? mustServe)
    {
        if (mustServe is null || mustServe.Count == 0)
        {
            return allocation;
        }

        int[]? owners = null;
        AllocationReason[]? reasons = null;
        int m = programs.Count;
        var counts = new int[m];
        for (int i = 0; i < m; i++)
        {
            counts[i] = allocation.CoresOf(programs[i].ProgramId);
        }

        for (int i = 0; i < m; i++)
        {
            int id = programs[i].ProgramId;
            if (counts[i] > 0 || !mustServe.Contains(id))
            {
                continue;
            }

            // Take the last slot of the program holding the most (ties: the first in program order).
            int donor = 0;
            for (int j = 1; j < m; j++)
            {
                if (counts[j] > counts[donor])
                {
                    donor = j;
                }
            }

            if (counts[donor] == 0 || (counts[donor] < 2 && mustServe.Contains(programs[donor].ProgramId)))
            {
                continue; // nothing to spare now; a later repartitioning, after a removal finishes, will give one
            }

            owners ??= [.. allocation.WorkerOwners];
            reasons ??= [.. allocation.Reasons];
            int slot = Array.LastIndexOf(owners, programs[donor].ProgramId);
            owners[slot] = id;
            reasons[slot] = AllocationReason.ProgramExit;
            counts[donor]--;
            counts[i]++;
        }

        return owners is null ? allocation : new Allocation(allocation.ProgramIds, owners, reasons);
    }
}
