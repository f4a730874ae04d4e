/** The page: the task list, a task, or the new-task form, chosen by the address's hash (`#/task/ID`, `#/new`). */
import { useEffect, useState } from "preact/hooks";
import { Fleet } from "./fleet.js";
import { NewTask } from "./new-task.js";
import { TaskList } from "./task-list.js";
import { TaskPage } from "./task-page.js";
import { Usage } from "./usage.js";

export type Route = { page: "tasks" } | { page: "new" } | { page: "task"; taskId: string };

export function routeOf(hash: string): Route {
  const task = /^#\/task\/([^/?#]+)/.exec(hash);
  if (task !== null) return { page: "task", taskId: decodeURIComponent(task[1]!) };
  if (hash.startsWith("#/new")) return { page: "new" };
  return { page: "tasks" };
}

export function App() {
  const [route, setRoute] = useState<Route>(() => routeOf(location.hash));
  useEffect(() => {
    const onHash = (): void => setRoute(routeOf(location.hash));
    window.addEventListener("hashchange", onHash);
    // The address may have changed between the first render and now.
    onHash();
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  const navigate = (hash: string): void => {
    location.hash = hash;
  };
  return (
    <>
      <nav class="top">
        <a class="brand" href="#/">
          cairn
        </a>
        <a href="#/">Tasks</a>
        <a href="#/new">New task</a>
      </nav>
      <div class="page">
        {route.page === "task" ? (
          <TaskPage key={route.taskId} taskId={route.taskId} />
        ) : route.page === "new" ? (
          <NewTask navigate={navigate} />
        ) : (
          <>
            <TaskList />
            <Fleet />
            <Usage />
          </>
        )}
      </div>
    </>
  );
}
