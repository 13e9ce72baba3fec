using System.Collections.Concurrent;
using DivCon.Tests.Infrastructure;

namespace DivCon.Tests.Scheduling;

/// <summary>
/// Behaviours every DivCon scheduler must have (issue 2's "must show" 1-4, 6 and 10). One subclass per scheduler.
/// </summary>
public abstract class SchedulerContractTests
{
    protected abstract ISchedulerFixture Create(int workers);

    [Theory]
    [WorkersData(1)]
    [WorkersData(2)]
    public void Outside_tasks_run_on_workers_with_the_scheduler_current_and_at_most_N_at_once(int workers)
    {
        using ISchedulerFixture f = Create(workers);
        int running = 0, highWater = 0, wrongThread = 0, wrongScheduler = 0;
        var tasks = new Task[200];
        for (int i = 0; i < tasks.Length; i++)
        {
            tasks[i] = Task.Factory.StartNew(
                () =>
                {
                    int now = Interlocked.Increment(ref running);
                    int seen;
                    while (now > (seen = Volatile.Read(ref highWater)) && Interlocked.CompareExchange(ref highWater, now, seen) != seen)
                    {
                    }

                    if (!f.IsWorker(Thread.CurrentThread))
                    {
                        Interlocked.Increment(ref wrongThread);
                    }

                    if (TaskScheduler.Current != f.Scheduler)
                    {
                        Interlocked.Increment(ref wrongScheduler);
                    }

                    Thread.SpinWait(2000);
                    Interlocked.Decrement(ref running);
                },
                CancellationToken.None,
                TaskCreationOptions.None,
                f.Scheduler);
        }

        Wait.For(Task.WhenAll(tasks));
        Assert.Equal(0, wrongThread);
        Assert.Equal(0, wrongScheduler);
        Assert.InRange(highWater, 1, workers);
    }

    [Fact]
    public void With_one_worker_children_run_in_LIFO_order()
    {
        using ISchedulerFixture f = Create(1);
        var order = new ConcurrentQueue<int>();
        Task parent = Task.Factory.StartNew(
            () =>
            {
                for (int i = 0; i < 10; i++)
                {
                    int child = i;
                    Task.Factory.StartNew(() => order.Enqueue(child), TaskCreationOptions.AttachedToParent);
                }
            },
            CancellationToken.None,
            TaskCreationOptions.None,
            f.Scheduler);

        Wait.For(parent);
        Assert.Equal(Enumerable.Range(0, 10).Reverse(), order);
    }

    [ProcessorFact(2)]
    public void With_two_workers_the_idle_one_steals_from_the_FIFO_end()
    {
        using ISchedulerFixture f = Create(2);
        const int Children = 400;
        var byThread = new ConcurrentDictionary<Thread, ConcurrentQueue<int>>();
        Thread? parentThread = null;
        int stolen = 0;
        Task parent = Task.Factory.StartNew(
            () =>
            {
                parentThread = Thread.CurrentThread;
                for (int i = 0; i < Children; i++)
                {
                    int child = i;
                    Task.Factory.StartNew(
                        () =>
                        {
                            byThread.GetOrAdd(Thread.CurrentThread, _ => new ConcurrentQueue<int>()).Enqueue(child);
                            if (Thread.CurrentThread == parentThread)
                            {
                                // The owner holds on (bounded) until the other worker has stolen, so that even a
                                // heavily loaded machine, which may delay the thief's wake-up, exercises a steal.
                                SpinWait.SpinUntil(() => Volatile.Read(ref stolen) > 0, Wait.Long);
                            }
                            else
                            {
                                Interlocked.Increment(ref stolen);
                            }

                            Thread.SpinWait(20_000);
                        },
                        TaskCreationOptions.AttachedToParent);
                }
            },
            CancellationToken.None,
            TaskCreationOptions.None,
            f.Scheduler);

        Wait.For(parent);
        Assert.Equal(Children, byThread.Values.Sum(q => q.Count));
        Assert.True(f.Steals > 0, "The second worker never stole.");

        // The owner pops from the tail (descending); the thief, whose own deque stays empty because the children
        // spawn nothing, takes from the head (ascending) every time.
        int[] owner = byThread.TryGetValue(parentThread!, out var o) ? [.. o] : [];
        int[] thief = byThread.Where(kv => kv.Key != parentThread).SelectMany(kv => kv.Value).ToArray();
        Assert.NotEmpty(thief);
        Assert.Equal(thief.Order(), thief);
        Assert.Equal(owner.OrderDescending(), owner);
        Assert.Equal(0, thief[0]); // the first stolen child is the oldest one
    }

    /// <summary>
    /// The only worker is kept busy while two outside threads Wait / take Result of queued tasks (where the TPL tries to
    /// inline them): the tasks run on the worker once it is free, never on the waiting threads. The worker busy-waits
    /// rather than blocks, so on Linux no compensating worker runs the tasks early (a thread in state R counts as
    /// computing); the gate opens in a finally, so a failed assertion cannot leave the worker spinning into Dispose.
    /// </summary>
    [Fact]
    public void Wait_and_Result_on_an_outside_thread_never_run_the_task_on_that_thread()
    {
        using ISchedulerFixture f = Create(1);
        using var gate = new ManualResetEventSlim(false);
        Task blocker = Task.Factory.StartNew(
            () =>
            {
                long until = System.Diagnostics.Stopwatch.GetTimestamp() + (long)(Wait.Long.TotalSeconds * System.Diagnostics.Stopwatch.Frequency);
                while (!gate.IsSet && System.Diagnostics.Stopwatch.GetTimestamp() < until)
                {
                    Thread.SpinWait(50);
                }
            },
            CancellationToken.None,
            TaskCreationOptions.None,
            f.Scheduler);
        try
        {
            WaitersNeverRunTheTasks(f, gate);
        }
        finally
        {
            gate.Set();
        }

        Wait.For(blocker);
    }

    private static void WaitersNeverRunTheTasks(ISchedulerFixture f, ManualResetEventSlim gate)
    {
        Thread? ranOn1 = null, ranOn2 = null;
        Task waited = Task.Factory.StartNew(() => { ranOn1 = Thread.CurrentThread; }, CancellationToken.None, TaskCreationOptions.None, f.Scheduler);
        Task<int> resulted = Task.Factory.StartNew(() => { ranOn2 = Thread.CurrentThread; return 42; }, CancellationToken.None, TaskCreationOptions.None, f.Scheduler);

        Thread? waiter1 = null, waiter2 = null;
        int result = 0;
        var t1 = new Thread(() => { waiter1 = Thread.CurrentThread; waited.Wait(); });
        var t2 = new Thread(() => { waiter2 = Thread.CurrentThread; result = resulted.Result; });
        t1.Start();
        t2.Start();

        // The only worker is busy, so the waiters block in Wait/Result, after the TPL's attempt to inline the task (its
        // first step): wait until both are asleep there, so that attempt has happened before the gate opens.
        Wait.Until(
            () => (t1.ThreadState & ThreadState.WaitSleepJoin) != 0 && (t2.ThreadState & ThreadState.WaitSleepJoin) != 0,
            "both waiting threads blocked in Wait/Result");
        Assert.False(waited.IsCompleted);
        gate.Set();
        Assert.True(t1.Join(Wait.Long) && t2.Join(Wait.Long), "The waiting threads did not finish.");
        Assert.Equal(42, result);
        Assert.NotSame(waiter1, ranOn1);
        Assert.NotSame(waiter2, ranOn2);
        Assert.True(f.IsWorker(ranOn1!) && f.IsWorker(ranOn2!));
    }

    [Fact]
    public void A_throwing_task_faults_only_itself_and_the_workers_survive()
    {
        using ISchedulerFixture f = Create(2);
        var faulted = Enumerable.Range(0, 50)
            .Select(i => Task.Factory.StartNew(() => throw new InvalidOperationException($"boom {i}"), CancellationToken.None, TaskCreationOptions.None, f.Scheduler))
            .ToArray();
        Assert.Throws<AggregateException>(() => Task.WaitAll(faulted, Wait.Long));
        Assert.All(faulted, t => Assert.IsType<InvalidOperationException>(t.Exception!.InnerException));

        var workerThreads = new ConcurrentDictionary<Thread, bool>();
        var later = Enumerable.Range(0, 200)
            .Select(i => Task.Factory.StartNew(() => { workerThreads[Thread.CurrentThread] = true; return i; }, CancellationToken.None, TaskCreationOptions.None, f.Scheduler))
            .ToArray();
        Wait.For(Task.WhenAll(later));
        Assert.Equal(Enumerable.Range(0, 200), later.Select(t => t.Result));
        Assert.All(workerThreads.Keys, t => Assert.True(f.IsWorker(t)));
    }

    [Fact]
    public void An_unobserved_faulted_task_does_not_crash_the_process()
    {
        using ISchedulerFixture f = Create(1);
        int raised = 0;
        EventHandler<UnobservedTaskExceptionEventArgs> handler = (_, e) =>
        {
            if (e.Exception.InnerException is ApplicationException { Message: "unobserved-divcon" })
            {
                Interlocked.Increment(ref raised);
            }

            e.SetObserved();
        };
        TaskScheduler.UnobservedTaskException += handler;
        try
        {
            WeakReference weak = StartUnobserved(f.Scheduler);
            for (int i = 0; i < 20 && (weak.IsAlive || Volatile.Read(ref raised) == 0); i++)
            {
                GC.Collect();
                GC.WaitForPendingFinalizers();
            }

            // The scheduler still works after the faulted task was collected.
            Assert.Equal(7, Wait.For(Task.Factory.StartNew(() => 7, CancellationToken.None, TaskCreationOptions.None, f.Scheduler)));
            Assert.False(weak.IsAlive);
        }
        finally
        {
            TaskScheduler.UnobservedTaskException -= handler;
        }
    }

    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private static WeakReference StartUnobserved(TaskScheduler scheduler)
    {
        Task t = Task.Factory.StartNew(() => throw new ApplicationException("unobserved-divcon"), CancellationToken.None, TaskCreationOptions.None, scheduler);
        ((IAsyncResult)t).AsyncWaitHandle.WaitOne(Wait.Long); // completes without observing the exception
        return new WeakReference(t);
    }

    [Fact]
    public void Every_TPL_entry_point_reaches_the_scheduler()
    {
        using ISchedulerFixture f = Create(2);
        TaskScheduler s = f.Scheduler;
        var seen = new ConcurrentDictionary<string, (TaskScheduler? Current, bool OnWorker)>();
        Action Record(string name) => () => seen[name] = (TaskScheduler.Current, f.IsWorker(Thread.CurrentThread));

        Task a = Task.Factory.StartNew(Record("StartNew"), CancellationToken.None, TaskCreationOptions.None, s);
        var b = new Task(Record("Start"));
        b.Start(s);
        Task c = new TaskFactory(s).StartNew(Record("TaskFactory"));
        Task<int> d = new TaskFactory<int>(s).StartNew(() => { Record("TaskFactory<T>")(); return 1; });
        Task e = Task.CompletedTask.ContinueWith(_ => Record("ContinueWith")(), CancellationToken.None, TaskContinuationOptions.None, s);
        Task g = Task.Factory.ContinueWhenAll([a, b], _ => Record("ContinueWhenAll")(), CancellationToken.None, TaskContinuationOptions.None, s);
        Task h = Task.Factory.ContinueWhenAny([a, b], _ => Record("ContinueWhenAny")(), CancellationToken.None, TaskContinuationOptions.None, s);
        Task children = Task.Factory.StartNew(
            () =>
            {
                // No scheduler given: StartNew uses TaskScheduler.Current, Task.Start the same, ContinueWith too.
                Task.Factory.StartNew(Record("child StartNew"), TaskCreationOptions.AttachedToParent);
                var t = new Task(Record("child Start"), TaskCreationOptions.AttachedToParent);
                t.Start();
                t.ContinueWith(_ => Record("child ContinueWith")(), TaskContinuationOptions.AttachedToParent);
                Task.Factory.StartNew(Record("child LongRunning"), TaskCreationOptions.LongRunning | TaskCreationOptions.AttachedToParent);
            },
            CancellationToken.None,
            TaskCreationOptions.None,
            s);

        Wait.For(Task.WhenAll(a, b, c, d, e, g, h, children));
        string[] expected =
        [
            "StartNew", "Start", "TaskFactory", "TaskFactory<T>", "ContinueWith", "ContinueWhenAll", "ContinueWhenAny",
            "child StartNew", "child Start", "child ContinueWith", "child LongRunning",
        ];
        Assert.Equal(expected.Order(), seen.Keys.Order());
        Assert.All(seen, kv =>
        {
            Assert.True(kv.Value.Current == s, $"{kv.Key}: TaskScheduler.Current was not the scheduler.");

            // LongRunning runs on a dedicated thread outside the pool (blocking compensation on, the default).
            Assert.True(kv.Value.OnWorker == (kv.Key != "child LongRunning"), $"{kv.Key}: ran on the wrong kind of thread.");
        });
    }

    [Theory]
    [WorkersData(1)]
    [WorkersData(2)]
    public void A_recursive_spawn_tree_completes_with_the_exact_count(int workers)
    {
        using ISchedulerFixture f = Create(workers);
        Assert.Equal(SpawnTree.Size(14), SpawnTree.Run(f.Scheduler, 14, TimeSpan.FromSeconds(60)));
    }
}

/// <summary>A binary tree of fire-and-forget tasks; each counts itself; the last one completes the run.</summary>
internal static class SpawnTree
{
    public static long Size(int depth) => (2L << depth) - 1;

    /// <summary>Runs the tree; returns the number of tasks that ran (asserts nothing, so callers compare).</summary>
    public static long Run(TaskScheduler scheduler, int depth, TimeSpan timeout)
    {
        var state = new State(Size(depth));
        Task.Factory.StartNew(s => Node((State)s!, depth), state, CancellationToken.None, TaskCreationOptions.None, scheduler);
        Assert.True(state.Done.Task.Wait(timeout), $"The spawn tree of depth {depth} did not finish within {timeout.TotalSeconds} s: {Interlocked.Read(ref state.Count)} of {state.Expected} tasks ran.");

        // Extra tasks would show up here too: give a straggler a moment to run (there must be none).
        Thread.Sleep(10);
        return Interlocked.Read(ref state.Count);
    }

    private static void Node(State state, int depth)
    {
        if (depth > 0)
        {
            // No scheduler given: the children land on TaskScheduler.Current, the scheduler under test.
            Task.Factory.StartNew(static s => Node(((Tuple<State, int>)s!).Item1, ((Tuple<State, int>)s!).Item2), Tuple.Create(state, depth - 1));
            Task.Factory.StartNew(static s => Node(((Tuple<State, int>)s!).Item1, ((Tuple<State, int>)s!).Item2), Tuple.Create(state, depth - 1));
        }

        if (Interlocked.Increment(ref state.Count) == state.Expected)
        {
            state.Done.TrySetResult();
        }
    }

    private sealed class State(long expected)
    {
        public readonly long Expected = expected;
        public readonly TaskCompletionSource Done = new(TaskCreationOptions.RunContinuationsAsynchronously);
        public long Count;
    }
}
