// Parallel loops that let their workers move (issue 20, item 0). A MultiProgramScheduler moves a worker between
// programs only between tasks, and .NET's Parallel.For runs its root replica for as long as there is work (the other
// replicas yield after about 100 + 50 * P ms): a worker the policy gives another program stays in the loop until then.
// These loops are cut into chunks and poll, between two chunks, whether their worker is asked to move
// (Worker.IsMoveRequested: its assignment changed, or it is lent and its home wants it back); if so, the replica queues a
// new replica of itself to the loop's scheduler and ends its task, so the worker moves within one chunk and the rest of
// the range is run by the program's other workers (or by whoever serves the program next).
//
// Roles
//   replica - a task of the loop's scheduler: claims chunks from the shared range (Interlocked.Add on _next, so every
//             index is claimed exactly once) and runs them, until the range is exhausted, the loop is stopped (a fault,
//             cancellation) or its worker is asked to move (then it re-queues itself and ends).
//   helper  - the caller of a synchronous For that is itself running on the loop's scheduler: it runs chunks too, until
//             the range is exhausted, and then waits for the chunks in flight. A synchronous call cannot give its thread
//             back, so that worker moves only when the range is exhausted (as with Parallel.For's root replica), and it
//             must not stop early either: the replica it would leave the rest to may sit in the queue of a program whose
//             only worker is this very thread. Await ForAsync instead there.
//   waiter  - the caller of For (blocks) or ForAsync / ForEachAsync (gets a task).
//
// Completion (required: the loop completes after every chunk has returned, and does not wait for replicas that have
// nothing left to do): _inFlight counts the replicas between a claim attempt and its end; the attempt whose decrement
// reaches zero with the range exhausted (or the loop stopped) completes the loop, with every recorded exception
// (AggregateException, as Parallel.For), else canceled when the token stopped it, else successfully. A replica queued
// by a worker that moved may run after that: it claims nothing and ends. So the loop never waits on a replica sitting in
// the queue of a program that has no worker.
//
// Where a re-queued replica goes: queued from a worker serving the set, it lands on that worker's own deque, which the
// worker drains into the set's global queue when it leaves (Worker.SwitchTo); so it is never stranded on a worker that
// now serves another program.
//
// On a standalone WorkStealingTaskScheduler (or any other TaskScheduler) nobody asks a worker to move: the loops run as
// chunked parallel loops, with the same results, exceptions and cancellation.
//
// Rejected: re-queuing every chunk as its own task (one task per chunk costs an allocation and a queue operation per
// millisecond of work, and loses the replica's adapted chunk size); interrupting a chunk (a task's thread never changes
// mid-task); a fixed default chunk size (the cost of an iteration is unknown, and a chunk's time is what bounds a move).
using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace DivCon.Scheduling;

/// <summary>
/// Parallel loops whose workers can move between chunks: run on a <c>MultiProgramScheduler</c> program's scheduler, a
/// worker the policy moves away leaves the loop within one chunk (<see cref="ShouldYield"/>), the rest of the range
/// going to the program's other workers. Results, exceptions and cancellation are as with <see cref="Parallel"/>.
/// <c>ProgramHandle.ParallelFor</c> and its siblings call these with the program's scheduler.
/// </summary>
public static class ChunkedLoops
{
#if DEBUG
    /// <summary>
    /// Tests only: a range loop completes on the last decrement of its in-flight count without reading the count again
    /// (the code before the fix in RangeLoop.EndAttempt), so that the explorer can show the early completion it allowed.
    /// Never set outside the explorer test.
    /// </summary>
    internal static bool s_completeWithoutRecheckForTests;

#endif
    /// <summary>
    /// True on a DivCon worker thread, inside a task, when the worker is asked to leave the program it serves at its next
    /// task boundary (the policy moved it, or it is lent and its own program wants it back). A long task that polls it
    /// between steps and returns when it is set lets the worker move at once. False on any other thread, and always on
    /// a standalone <see cref="WorkStealingTaskScheduler"/>. Cost: a thread-static read and a volatile read.
    /// </summary>
    public static bool ShouldYield
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => Worker.Current is { } worker && worker.IsMoveRequested;
    }

    /// <summary>
    /// Runs <paramref name="body"/> for every index from <paramref name="fromInclusive"/> to <paramref name="toExclusive"/>
    /// in parallel on <paramref name="scheduler"/> and blocks until every chunk is done.
    /// </summary>
    /// <exception cref="AggregateException">One or more iterations threw: every exception recorded (no chunk starts after the first).</exception>
    /// <exception cref="OperationCanceledException">The options' token was canceled before the loop ended.</exception>
    /// <remarks>Called from a task running on <paramref name="scheduler"/>, the calling thread runs chunks too, until none is left: its worker cannot move before (see the file header), the others can. Prefer <see cref="ForAsync(TaskScheduler, int, int, Action{int}, ChunkedLoopOptions?)"/> there.</remarks>
    public static void For(TaskScheduler scheduler, int fromInclusive, int toExclusive, Action<int> body, ChunkedLoopOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(body);
        For(scheduler, fromInclusive, toExclusive, PerIndex(body), options);
    }

    /// <summary>
    /// As <see cref="For(TaskScheduler, int, int, Action{int}, ChunkedLoopOptions?)"/>, calling <paramref name="rangeBody"/>
    /// once per chunk with the chunk's bounds (inclusive, exclusive).
    /// </summary>
    /// <exception cref="AggregateException">One or more chunks threw.</exception>
    /// <exception cref="OperationCanceledException">The options' token was canceled before the loop ended.</exception>
    public static void For(TaskScheduler scheduler, int fromInclusive, int toExclusive, Action<int, int> rangeBody, ChunkedLoopOptions? options = null)
    {
        RangeLoop loop = RangeLoop.Create(scheduler, fromInclusive, toExclusive, rangeBody, options);
        bool help = Worker.Current is not null && ReferenceEquals(TaskScheduler.Current, scheduler);
        loop.Start(helper: help);
        if (help)
        {
            loop.RunChunks(loop.InitialChunk, helper: true); // until the range is exhausted (header: the helper)
        }

        Task done = loop.Completion;
        done.ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing).GetAwaiter().GetResult();
        if (done.IsFaulted)
        {
            throw new AggregateException(done.Exception!.InnerExceptions);
        }

        if (done.IsCanceled)
        {
            throw new OperationCanceledException(loop.Token);
        }
    }

    /// <summary>
    /// Runs <paramref name="body"/> for every index from <paramref name="fromInclusive"/> to <paramref name="toExclusive"/>
    /// in parallel on <paramref name="scheduler"/>; the returned task completes when every chunk is done. The caller's
    /// thread runs nothing, so awaiting it inside one of the scheduler's tasks holds no worker.
    /// </summary>
    /// <returns>A task faulted with every exception the iterations threw, canceled when the options' token stopped the loop, else successful.</returns>
    public static Task ForAsync(TaskScheduler scheduler, int fromInclusive, int toExclusive, Action<int> body, ChunkedLoopOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(body);
        return ForAsync(scheduler, fromInclusive, toExclusive, PerIndex(body), options);
    }

    /// <summary>As <see cref="ForAsync(TaskScheduler, int, int, Action{int}, ChunkedLoopOptions?)"/>, calling <paramref name="rangeBody"/> once per chunk with its bounds (inclusive, exclusive).</summary>
    /// <returns>A task faulted with every exception the chunks threw, canceled when the options' token stopped the loop, else successful.</returns>
    public static Task ForAsync(TaskScheduler scheduler, int fromInclusive, int toExclusive, Action<int, int> rangeBody, ChunkedLoopOptions? options = null)
    {
        RangeLoop loop = RangeLoop.Create(scheduler, fromInclusive, toExclusive, rangeBody, options);
        loop.Start(helper: false);
        return loop.Completion;
    }

    /// <summary>
    /// Runs the asynchronous <paramref name="body"/> for every element of <paramref name="source"/> in parallel on
    /// <paramref name="scheduler"/>, as <see cref="Parallel.ForEachAsync{TSource}(IEnumerable{TSource}, ParallelOptions, Func{TSource, CancellationToken, ValueTask})"/>
    /// does, one element per step: between two elements a replica whose worker is asked to move continues on another
    /// task of the scheduler (so the worker leaves). The body's token is canceled by the options' token or on the first
    /// exception. <see cref="ChunkedLoopOptions.ChunkSize"/> and <see cref="ChunkedLoopOptions.TargetChunkTime"/> do not apply.
    /// </summary>
    /// <returns>A task faulted with every exception the bodies threw, canceled when the options' token stopped the loop, else successful.</returns>
    public static Task ForEachAsync<TSource>(TaskScheduler scheduler, IEnumerable<TSource> source, Func<TSource, CancellationToken, ValueTask> body, ChunkedLoopOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(scheduler);
        ArgumentNullException.ThrowIfNull(source);
        ArgumentNullException.ThrowIfNull(body);
        options ??= new ChunkedLoopOptions();
        options.Validate();
        int replicas = options.MaxDegreeOfParallelism ?? Math.Max(1, scheduler.MaximumConcurrencyLevel);
        return new ElementLoop<TSource>(scheduler, source, body, options.CancellationToken).RunAsync(replicas);
    }

    private static Action<int, int> PerIndex(Action<int> body) => (from, to) =>
    {
        for (int i = from; i < to; i++)
        {
            body(i);
        }
    };

    /// <summary>One integer-range loop: the shared range, the chunks in flight and the outcome (see the file header).</summary>
    private sealed class RangeLoop
    {
        private readonly TaskScheduler _scheduler;
        private readonly Action<int, int> _body;
        private readonly long _to;
        private readonly int? _fixedChunk;
        private readonly long _targetTicks;
        private readonly int _replicas;
        private readonly TaskCompletionSource _done = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private readonly List<Exception> _errors = [];   // under its own lock
        private long _next;                               // the first index not yet claimed (Interlocked.Add by replicas)
        private int _inFlight;                            // replicas between their claim attempt and its end (Interlocked)
        private volatile bool _stop;                      // a fault or cancellation: no chunk is claimed after it is read true
        private volatile bool _canceled;

        private RangeLoop(TaskScheduler scheduler, long from, long to, Action<int, int> body, ChunkedLoopOptions options, int replicas)
        {
            _scheduler = scheduler;
            _next = from;
            _to = to;
            _body = body;
            _fixedChunk = options.ChunkSize;
            _targetTicks = Math.Max(1, (long)(options.TargetChunkTime.TotalSeconds * Stopwatch.Frequency));
            Token = options.CancellationToken;
            _replicas = replicas;
        }

        public CancellationToken Token { get; }

        public Task Completion => _done.Task;

        public int InitialChunk => _fixedChunk ?? 1;

        public static RangeLoop Create(TaskScheduler scheduler, int from, int to, Action<int, int> body, ChunkedLoopOptions? options)
        {
            ArgumentNullException.ThrowIfNull(scheduler);
            ArgumentNullException.ThrowIfNull(body);
            if (to < from)
            {
                throw new ArgumentOutOfRangeException(nameof(to), to, $"toExclusive ({to}) must not be below fromInclusive ({from}).");
            }

            options ??= new ChunkedLoopOptions();
            options.Validate();
            long count = (long)to - from;
            long chunks = options.ChunkSize is int size ? (count + size - 1) / size : count;
            int degree = options.MaxDegreeOfParallelism ?? Math.Max(1, scheduler.MaximumConcurrencyLevel);
            return new RangeLoop(scheduler, from, to, body, options, (int)Math.Clamp(chunks, 1, degree));
        }

        /// <summary>Queues the replicas (one fewer when the caller helps); an empty range completes at once.</summary>
        public void Start(bool helper)
        {
            if (_next >= _to)
            {
                Complete();
                return;
            }

            int tasks = helper ? _replicas - 1 : _replicas;
            for (int i = 0; i < tasks; i++)
            {
                Queue(InitialChunk);
            }
        }

        /// <summary>
        /// A replica's (or the helper's) work: chunks until the range is exhausted or the loop stopped; a replica (not the
        /// helper, which cannot leave its thread: header) also ends when its worker is asked to move, queuing a new one.
        /// </summary>
        public void RunChunks(int chunk, bool helper)
        {
            while (true)
            {
                if (!helper && ShouldYield)
                {
                    if (!_stop && Volatile.Read(ref _next) < _to)
                    {
                        Queue(chunk); // the rest goes on in a new task; this one ends and its worker moves
                    }

                    return;
                }

                // Counted before the stop check and the claim (required: the loop completes only when no chunk can run
                // any more; Interlocked is a full fence, pairing with Fail's write of _stop before its own decrement).
                Interlocked.Increment(ref _inFlight);
                ScheduleHook.Yield("loop.claim");
                bool ran = false;
                try
                {
                    if (Token.IsCancellationRequested)
                    {
                        _canceled = true;
                        _stop = true;
                    }
                    else if (!_stop)
                    {
                        long start = Interlocked.Add(ref _next, chunk) - chunk;
                        if (start < _to)
                        {
                            int end = (int)Math.Min(start + chunk, _to);
                            long began = Stopwatch.GetTimestamp();
                            _body((int)start, end);
                            ran = true;
                            if (_fixedChunk is null)
                            {
                                chunk = Adapt(chunk, Stopwatch.GetTimestamp() - began);
                            }
                        }
                    }
                }
                catch (Exception ex)
                {
                    Fail(ex);
                }
                finally
                {
                    EndAttempt();
                }

                if (!ran)
                {
                    return;
                }
            }
        }

        private int Adapt(int chunk, long elapsedTicks)
        {
            if (elapsedTicks < _targetTicks / 2 && chunk <= int.MaxValue / 2)
            {
                return chunk * 2;
            }

            return elapsedTicks > 2 * _targetTicks && chunk > 1 ? chunk / 2 : chunk;
        }

        private void Queue(int chunk)
        {
            try
            {
                Task.Factory.StartNew(static state =>
                {
                    var (loop, c) = ((RangeLoop, int))state!;
                    loop.RunChunks(c, helper: false);
                }, (this, chunk), CancellationToken.None, TaskCreationOptions.DenyChildAttach, _scheduler);
            }
            catch (Exception ex)
            {
                // The scheduler refused the task (disposed, or a program removed): the loop stops with that exception.
                Interlocked.Increment(ref _inFlight);
                Fail(ex);
                EndAttempt();
            }
        }

        private void Fail(Exception ex)
        {
            lock (_errors)
            {
                _errors.Add(ex);
            }

            _stop = true;
        }

        // The last attempt out, with the range exhausted or the loop stopped, completes it: no chunk runs any more (a
        // replica that comes later counts itself in first and then finds nothing to claim). Completing twice is harmless.
        //
        // Required (no completion while a chunk runs): the count is read again after the range. An attempt whose decrement
        // reached zero while the range was not yet exhausted can see it exhausted a moment later, because another
        // replica counted itself in and claimed the last chunk in between, and is running it; completing then released
        // the loop's waiter with that chunk's work unfinished (a wrong sum, 1 of 15,276 loops in `divcon open --loops
        // chunked --rate 120`). The claimer of the last chunk (or whoever stopped the loop) was counted in before its
        // claim and stays counted until its chunk has returned, so reading the count as zero after reading the range as
        // exhausted (acquire reads, in this order: _stop and _next are read before _inFlight) means no chunk is running
        // and none can start. Liveness: the attempt that makes the count zero after exhaustion sees the range exhausted;
        // if a newer attempt has counted itself in by then, that attempt claims nothing and repeats this check when it
        // ends, and replicas are finite.
        private void EndAttempt()
        {
            if (Interlocked.Decrement(ref _inFlight) != 0)
            {
                return;
            }

            ScheduleHook.Yield("loop.end-attempt");
            if (_stop || Volatile.Read(ref _next) >= _to)
            {
#if DEBUG
                if (s_completeWithoutRecheckForTests)
                {
                    Complete();
                    return;
                }
#endif
                if (Volatile.Read(ref _inFlight) == 0)
                {
                    Complete();
                }
            }
        }

        private void Complete()
        {
            Exception[] errors;
            lock (_errors)
            {
                errors = [.. _errors];
            }

            if (errors.Length > 0)
            {
                _done.TrySetException(errors);
            }
            else if (_canceled)
            {
                _done.TrySetCanceled(Token);
            }
            else
            {
                _done.TrySetResult();
            }
        }
    }

    /// <summary>One element loop (ForEachAsync): a shared enumerator under a lock, async replicas.</summary>
    private sealed class ElementLoop<TSource>(TaskScheduler scheduler, IEnumerable<TSource> source, Func<TSource, CancellationToken, ValueTask> body, CancellationToken token)
    {
        private readonly List<Exception> _errors = [];
        private IEnumerator<TSource>? _elements;
        private bool _exhausted;

        public Task RunAsync(int replicas)
        {
            var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            _ = RunCoreAsync(replicas, done);
            return done.Task;
        }

        // Never throws: the outcome goes to done (faulted with every exception, as Parallel.ForEachAsync's task).
        private async Task RunCoreAsync(int replicas, TaskCompletionSource done)
        {
            using var stop = CancellationTokenSource.CreateLinkedTokenSource(token);
            try
            {
                _elements = source.GetEnumerator();
                var running = new Task[replicas];
                for (int i = 0; i < replicas; i++)
                {
                    running[i] = Task.Factory.StartNew(() => ReplicaAsync(stop), CancellationToken.None, TaskCreationOptions.DenyChildAttach, scheduler).Unwrap();
                }

                await Task.WhenAll(running).ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
                _elements.Dispose();
            }
            catch (Exception ex)
            {
                lock (_errors)
                {
                    _errors.Add(ex);
                }
            }

            if (_errors.Count > 0)
            {
                done.TrySetException(_errors);
            }
            else if (token.IsCancellationRequested)
            {
                done.TrySetCanceled(token);
            }
            else
            {
                done.TrySetResult();
            }
        }

        private async Task ReplicaAsync(CancellationTokenSource stop)
        {
            while (!stop.IsCancellationRequested)
            {
                if (ShouldYield)
                {
                    // Continues on a new task of the program (TaskScheduler.Current here): this one ends, the worker moves.
                    await Task.Yield();
                    continue;
                }

                TSource element = default!;
                bool failed = false;
                lock (_errors)
                {
                    if (_exhausted)
                    {
                        return;
                    }

                    try
                    {
                        if (!_elements!.MoveNext())
                        {
                            _exhausted = true;
                            return;
                        }

                        element = _elements.Current;
                    }
                    catch (Exception ex)
                    {
                        _exhausted = true;
                        _errors.Add(ex);
                        failed = true;
                    }
                }

                if (failed)
                {
                    stop.Cancel(); // outside the lock: cancellation callbacks run here
                    return;
                }

                try
                {
                    // Continues on TaskScheduler.Current, the loop's scheduler (no ConfigureAwait(false): the element's
                    // continuation must come back to the program's workers).
                    await body(element, stop.Token);
                }
                catch (OperationCanceledException) when (stop.IsCancellationRequested)
                {
                    return; // canceled by the caller's token or by another element's failure: not an error of its own
                }
                catch (Exception ex)
                {
                    lock (_errors)
                    {
                        _errors.Add(ex);
                    }

                    stop.Cancel();
                    return;
                }
            }
        }
    }
}
