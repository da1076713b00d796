"""Dense associative memory with log-sum-exp and Epanechnikov (log-sum-ReLU) energies.

Hoover, Shi, Balasubramanian, Krotov and Ram, *Dense Associative Memory with Epanechnikov
Energy*. The chapter note (``shared/notes/05-epanechnikov-dense-am.md``) fixes the conventions:
strict active set, squared distances in difference form, ``eps`` for the floor inside the LSR log.
"""
