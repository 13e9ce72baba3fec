// DivCon quick start: two divide-and-conquer programs, written with the skeleton's declarative factory, run side by
// side on one MultiProgramScheduler, which divides the machine's cores between them. Prints each program's
// allocation over time, the scheduler's record of every worker move, and each program's result.
using System.Diagnostics;
using System.Globalization;
using DivCon.Multiprogramming;
using DivCon.Partitioning;
using DivCon.Skeletons;

CultureInfo.DefaultThreadCurrentCulture = CultureInfo.InvariantCulture;
CultureInfo.CurrentCulture = CultureInfo.InvariantCulture;
#region QuickStart
// The inputs: 2^21 random numbers to sort, and N for the sum of the squares of 1..N.
int[] items = RandomItems(count: 1 << 21, seed: 42);
const long N = 150_000_000;

// One worker thread per processor this process may use (pinned where the OS allows it). The task-availability
// policy gives each program cores in proportion to its scalability, capped by the tasks it has queued.
using var scheduler = new MultiProgramScheduler(new MultiProgramSchedulerOptions
{
    Policy = new TaskAvailabilityPolicy(),
    BestEffortPinning = true,
    RepartitionInterval = TimeSpan.FromMilliseconds(20),
});

// Each program gets its own work-stealing TaskScheduler, served by the shared workers.
// A scalability you know wins; AddProgram(name) without one has it estimated while the program runs.
ProgramHandle sorting = scheduler.AddProgram("quicksort", scalability: 1.8);
ProgramHandle summing = scheduler.AddProgram("sum of squares", scalability: 2.0);

// Quicksort in place: a problem is a range [Lo, Hi) of the array; Split partitions it around a pivot into two
// smaller ranges; Merge adds up the counts of sorted items of the two halves.
DivConBase<(int Lo, int Hi), int> quicksort = DivConFactory.CreateBinary<(int Lo, int Hi), int>(
    shouldSplit: range => range.Hi - range.Lo > 16_384,
    split: range => Partition(items, range.Lo, range.Hi),
    executeMuscle: range =>
    {
        Array.Sort(items, range.Lo, range.Hi - range.Lo);
        return range.Hi - range.Lo;
    },
    merge: (left, right) => left + right,
    taskScheduler: sorting.Scheduler);

// Sum of the squares of From..To-1: Split halves the range. This one's muscles also get the run's context: its
// recursion level, its cancellation token (canceled when the caller cancels or a muscle fails) and its scheduler.
DivConBase<(long From, long To), UInt128> sumOfSquares = DivConFactory.CreateBinary<(long From, long To), UInt128>(
    shouldSplit: (range, context) => range.To - range.From > 1_000_000,
    split: (range, context) => new(((range.From, (range.From + range.To) / 2), ((range.From + range.To) / 2, range.To))),
    executeMuscle: (range, context) =>
    {
        UInt128 sum = 0;
        for (long i = range.From; i < range.To; i++)
        {
            sum += (ulong)(i * i);
        }

        return new(sum);
    },
    merge: (left, right, context) => new(left + right),
    taskScheduler: summing.Scheduler);

// RunAsync starts a program's recursion on its scheduler and returns its result as a task: faulted if a muscle
// throws, canceled if the token is canceled first.
using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(2));
Task<int> sorted = quicksort.RunAsync((0, items.Length), timeout.Token);
Task<UInt128> summed = sumOfSquares.RunAsync((1, N + 1), timeout.Token);
// ... await sorted and summed for the results (below, after printing the allocations while they run).

static int[] RandomItems(int count, int seed)
{
    var random = new Random(seed);
    var result = new int[count];
    for (int i = 0; i < result.Length; i++)
    {
        result[i] = random.Next();
    }

    return result;
}

// Hoare partition of [lo, hi) around its middle element: both returned ranges are non-empty (so each is smaller).
static ((int Lo, int Hi) Left, (int Lo, int Hi) Right) Partition(int[] a, int lo, int hi)
{
    int pivot = a[lo + ((hi - 1 - lo) / 2)];
    int i = lo - 1;
    int j = hi;
    while (true)
    {
        do
        {
            i++;
        }
        while (a[i] < pivot);

        do
        {
            j--;
        }
        while (a[j] > pivot);

        if (i >= j)
        {
            return ((lo, j + 1), (j + 1, hi));
        }

        (a[i], a[j]) = (a[j], a[i]);
    }
}
#endregion
long itemsChecksum = RandomItems(count: 1 << 21, seed: 42).Sum(x => (long)x); // the input before sorting

// While they run: sample each program's allocation every 10 ms and print it when it changes. When a program's
// result is ready, remove it from the scheduler, which hands its workers to the other program.
Console.WriteLine($"{scheduler.WorkerCount} workers, {(scheduler.IsPinned ? "pinned to processors " + string.Join(",", scheduler.PinnedProcessors) : "unpinned: " + scheduler.UnpinnedReason)}");
Console.WriteLine();
Console.WriteLine("Allocation over time (cores held; '-' once removed):");
Console.WriteLine($"{"time",10}  {sorting.Name,14}  {summing.Name,14}");
var running = new List<(Task Result, ProgramHandle Program)> { (sorted, sorting), (summed, summing) };
string? lastRow = null;
PrintAllocationIfChanged();
while (running.Count > 0)
{
    await Task.WhenAny(Task.WhenAny(running.Select(r => r.Result)), Task.Delay(10));
    foreach (var done in running.Where(r => r.Result.IsCompleted).ToList())
    {
        Console.WriteLine($"{Ms(Stopwatch.GetTimestamp()),7:F0} ms  {done.Program.Name} finished");
        scheduler.RemoveProgram(done.Program);
        running.Remove(done);
        PrintAllocationIfChanged();
    }

    PrintAllocationIfChanged();
}

Console.WriteLine();
Console.WriteLine("Worker moves (scheduler.Timeline):");
foreach (AllocationMove move in scheduler.Timeline.GetMoves())
{
    string processor = move.Processor is int p ? $" (cpu {p})" : "";
    Console.WriteLine(
        $"{Ms(move.Timestamp),7:F1} ms  worker {move.Worker}{processor}: {NameOf(move.FromProgramId)} -> {NameOf(move.ToProgramId)}  [{move.Reason}, {move.Trigger}]");
}

int sortedCount = await sorted;
bool inOrder = IsSorted(items) && items.Sum(x => (long)x) == itemsChecksum;
UInt128 sumResult = await summed;
UInt128 expected = (UInt128)N * (N + 1) * (2 * N + 1) / 6;
Console.WriteLine();
Console.WriteLine($"quicksort: {sortedCount} items sorted, in order: {inOrder}");
Console.WriteLine($"sum of squares 1..{N}: {sumResult}, expected {expected}: {sumResult == expected}");
return inOrder && sortedCount == items.Length && sumResult == expected ? 0 : 1;

double Ms(long timestamp) => (timestamp - scheduler.Timeline.OriginTimestamp) * 1000.0 / Stopwatch.Frequency;

void PrintAllocationIfChanged()
{
    string row = $"{Cores(sorting),14}  {Cores(summing),14}";
    if (row != lastRow)
    {
        Console.WriteLine($"{Ms(Stopwatch.GetTimestamp()),7:F0} ms  {row}");
        lastRow = row;
    }
}

string Cores(ProgramHandle program) => program.IsRemoved ? "-" : program.Allocation.ToString(CultureInfo.InvariantCulture);

string NameOf(int? programId) =>
    programId == sorting.Id ? sorting.Name : programId == summing.Id ? summing.Name : programId is null ? "idle" : $"program {programId}";


static bool IsSorted(int[] a)
{
    for (int i = 1; i < a.Length; i++)
    {
        if (a[i - 1] > a[i])
        {
            return false;
        }
    }

    return true;
}
