// What every page component receives from the router (App.tsx): the route's
// parameters. Its own module so that pages import it without importing the
// route table (routes.tsx imports the pages).
export interface PageProps {
  params: Record<string, string>;
}
