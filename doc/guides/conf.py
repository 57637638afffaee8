# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
project = 'mbufx'
copyright = '2026, The mbufx authors'
version = release = '0.1.0'
master_doc = 'index'
html_theme = 'alabaster'
exclude_patterns = []
